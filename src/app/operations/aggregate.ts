import { Type } from "@sinclair/typebox";
import { chargeTaken } from "../../domain/billing/charge.js";
import { priceOf } from "../../domain/pricing.js";
import { AGGREGATE_FILTERS, Params } from "../../schemas/params.js";
import { AggregateResponseSchema } from "../../schemas/aggregate-responses.js";
import { toAggregateRequest } from "../requests/aggregate-params.js";
import { aggregateSeries } from "../../usecases/aggregate/aggregate-series.js";
import { resolutionTaken, resolveEntityFilters, withResolved } from "../../usecases/entities/entity-aliases.js";
import { defineOperation } from "../operation.js";

const { Optional } = Type;

export const aggregateOperation = defineOperation({
  name: "aggregate",
  tool: "aggregate_news",
  method: "GET",
  path: "/aggregate",
  pathParams: [],
  summary: "Time series over the match set",
  description:
    "Matching articles counted per time bucket (`interval`: hour, day, week starting Monday, month, UTC; or `all`), every bucket of the window listed oldest first, empty ones as zero, ready to plot. `metrics=stories,outlets` adds distinct stories and distinct publishers per bucket; a bucket whose articles sit in two monthly indexes sums theirs and is marked `approximate`. Every shared filter except near, radius_km, bbox, amount_min and amount_max; `q` narrows to a keyword query. Without `from` the series starts at the plan's reach, at most 366 buckets back; more than 366 buckets is refused. 1 credit, plus 1 to 2 per entity_id.",
  params: Type.Object({
    interval: Params.interval,
    metrics: Optional(Params.metrics),
    percentile: Optional(Params.percentile),
    q: Optional(Params.q),
    ...AGGREGATE_FILTERS,
  }),
  response: AggregateResponseSchema,
  prepare(params, caller, deps) {
    const request = toAggregateRequest(params, caller.plan, deps.clock.now());
    const price = priceOf({
      operation: "aggregate",
      entityIds: request.filters.entities?.length ?? 0,
      percentilePass: request.metrics.signals.length > 0,
    });
    return {
      price,
      execute: async (meter) => {
        const resolution = await resolveEntityFilters(deps.index, request.filters, caller.plan, deps.clock.now());
        const body = await aggregateSeries(deps.index, request);
        meter.took(chargeTaken(price, { resolution: resolutionTaken(resolution) }));
        return withResolved(body, resolution);
      },
    };
  },
});
