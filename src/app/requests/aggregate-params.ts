import type { Static } from "@sinclair/typebox";
import { bucketCount, MAX_BUCKETS, startOfLast } from "../../domain/aggregate/buckets.js";
import type { Plan } from "../../domain/plans.js";
import type { Params } from "../../schemas/params.js";
import { invalidParameter } from "../../shared/api-error.js";
import { toStamp } from "../../shared/timestamps.js";
import { applyPlanWindow } from "../../usecases/query-kernel/plan-window.js";
import { filtersOf, keywordsOf, type ListParams } from "./search-params.js";
import { signalRangesOf } from "../../usecases/search/signal-filters.js";
import type { AggregateMetrics, AggregateRequest } from "../../usecases/aggregate/aggregate-request.js";
import { checkSignalMetric } from "../../usecases/aggregate/signal-metrics.js";

// GET /aggregate's parameters, checked before any work: the metrics, the
// window (`from` defaults to the plan's reach) and the 366-bucket limit.

/** /aggregate's parameters as validated against their declarations (schemas/params.ts). */
export type AggregateParams = ListParams & {
  interval: Static<typeof Params.interval>;
  metrics?: Static<typeof Params.metrics>;
  percentile?: Static<typeof Params.percentile>;
};

export function toAggregateRequest(params: AggregateParams, plan: Plan, nowMs: number): AggregateRequest {
  const keywords = params.q === undefined ? undefined : keywordsOf(params.q);
  const filters = filtersOf(params);
  const { ranges } = signalRangesOf(params);
  if (ranges.length > 0) filters.signal_ranges = ranges;
  const { names, metrics } = metricsOf(params.metrics);
  const to = filters.to ?? toStamp(nowMs);
  const window = applyPlanWindow(plan, filters.from, to, nowMs);
  let from = window.from;
  if (filters.from === undefined && params.interval !== "all") {
    // Without `from`, the series starts at the plan's reach, and at most 366 buckets back.
    const earliest = startOfLast(MAX_BUCKETS, to, params.interval);
    if (from === undefined || from < earliest) from = earliest;
  }
  // A window that ends before the plan's reach (or a `from` after now) is empty, not refused (aggregate-series.ts).
  if (from !== undefined && from <= to) {
    const count = bucketCount(from, to, params.interval);
    if (count > MAX_BUCKETS) {
      throw invalidParameter(
        "interval",
        `interval=${params.interval} from ${from} to ${to} makes ${count} buckets; at most ${MAX_BUCKETS} are served. Narrow 'from'/'to' (${MAX_BUCKETS} ${params.interval}s at most) or use a wider interval.`,
      );
    }
  }
  return {
    keywords,
    filters: { ...filters, from, to },
    window: { ...window, from, to },
    interval: params.interval,
    metrics,
    metricNames: names,
    percentile: params.percentile ?? 90,
  };
}

function metricsOf(list: string | undefined): { names: string[]; metrics: AggregateMetrics } {
  const metrics: AggregateMetrics = { stories: false, outlets: false, signals: [] };
  const names: string[] = [];
  for (const raw of (list ?? "").split(",")) {
    const name = raw.trim();
    if (name === "" || names.includes(name)) continue;
    if (name === "stories" || name === "outlets") metrics[name] = true;
    else if (name.startsWith("signal:")) metrics.signals.push(checkSignalMetric(name.slice("signal:".length)));
    else {
      throw invalidParameter(
        "metrics",
        `'metrics' names an unknown metric '${name.slice(0, 100)}': use stories, outlets or signal:<signal name>, comma-separated.`,
      );
    }
    names.push(name);
  }
  if (list !== undefined && names.length === 0)
    throw invalidParameter("metrics", "'metrics' names no metric: use stories, outlets or signal:<name>.");
  return { names, metrics };
}
