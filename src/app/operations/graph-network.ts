import { Type } from "@sinclair/typebox";
import { priceOf } from "../../domain/pricing.js";
import { GRAPH_SCOPE, GraphParams } from "../../schemas/params.js";
import { NetworkResponseSchema } from "../../schemas/graph-responses.js";
import { entityNetwork } from "../../usecases/graph/graph-network.js";
import { comparedBase, edgeTypes, graphBase, oneEntity, openScope } from "../requests/graph-params.js";
import { QueryLedger } from "../../usecases/graph/query-ledger.js";
import { runGraph } from "./graph-call.js";
import { defineOperation } from "../operation.js";

/** The compared window's pass (its id lookup and neighbour count) is charged flat (spec: "adds a flat 3 credits"). */
const COMPARISON_CREDITS = 3;

export const graphNetworkOperation = defineOperation({
  name: "graphNetwork",
  tool: "entity_network",
  method: "GET",
  path: "/graph/network",
  pathParams: [],
  summary: "One entity's neighbours by type, and how they changed",
  description:
    "The entities co-mentioned with one entity (`entity_id`), grouped by type (`neighbors`), at most `limit_per_type` (up to 20) each, strongest first, with `share` over the entity's own articles. With `compare_from` and `compare_to`, `comparison` lists the neighbours `new` since that window, those `gone`, and the ties whose share `grew` by half or `fell` by a third. Co-mention in reporting, not ownership, partnership or causation. 1 credit per index query: 2 to 4, plus 2 per neighbour given evidence (at most 16); a comparison adds a flat 3.",
  params: Type.Object({
    entity_id: GraphParams.entity,
    types: Type.Optional(GraphParams.types),
    limit_per_type: Type.Optional(GraphParams.limit_per_type),
    evidence: Type.Optional(GraphParams.network_evidence),
    compare_from: Type.Optional(GraphParams.compare_from),
    compare_to: Type.Optional(GraphParams.compare_to),
    ...GRAPH_SCOPE,
  }),
  response: NetworkResponseSchema,
  prepare(params, caller, deps) {
    const request = {
      seed: oneEntity("entity_id", params.entity_id),
      types: edgeTypes(params.types),
      perType: params.limit_per_type ?? 10,
      evidence: params.evidence ?? 0,
    };
    const base = graphBase(params);
    const compared = comparedBase(base, params.compare_from, params.compare_to);
    return {
      price: priceOf({ operation: "graph_network", evidence: request.evidence, compare: compared !== undefined }),
      execute: runGraph(base, caller, deps, async (scope, now) => {
        const other = compared && openScope(deps.index, compared, caller.plan, now, new QueryLedger(COMPARISON_CREDITS));
        const body = await entityNetwork(scope, request, other);
        return { body, flat: other ? COMPARISON_CREDITS : 0 };
      }),
    };
  },
});
