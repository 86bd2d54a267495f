import { bucketsOf } from "../../domain/aggregate/buckets.js";
import { ATTRIBUTION } from "../../domain/attribution.js";
import type { SignalName } from "../../domain/vocabularies/signals-v1.js";
import type { AggregateQuery, AggregateRow, ArticleSearch } from "../../ports/article-search.js";
import type { AggregateBucket, AggregateResponse } from "../../schemas/aggregate-responses.js";
import { assertSomethingRead, completeness } from "../query-kernel/coverage.js";
import { QUERY_BUDGET_MS } from "../query-kernel/query-budget.js";
import type { AggregateRequest } from "./aggregate-request.js";
import { reportedMean } from "./signal-metrics.js";

// GET /aggregate: the match set counted per time bucket. A bucket whose
// distinct stories and outlets the index could only estimate (its articles sit
// in several monthly indexes whose counts were summed, since an article's
// month is the month it was collected and publication can precede it; or the
// engine counted them with a sketch) says so.

export async function aggregateSeries(index: ArticleSearch, request: AggregateRequest): Promise<AggregateResponse> {
  const { from, to } = request.window;
  // The window is empty: it ends before the plan's reach (`from_clamped` says so) or starts after now.
  const empty = from !== undefined && from > to;
  const query: AggregateQuery = {
    filters: request.filters,
    interval: request.interval,
    metrics: { stories: request.metrics.stories, outlets: request.metrics.outlets },
    budgetMs: QUERY_BUDGET_MS,
  };
  const signals = request.metrics.signals;
  if (signals.length > 0) query.signals = { names: signals, percentile: request.percentile };
  if (request.keywords) query.keywords = request.keywords;
  const result = empty ? { rows: [], partitionsRead: [], partitionsFailed: [] } : await index.aggregate(query);
  assertSomethingRead(result, to);

  const distinct = request.metrics.stories || request.metrics.outlets;
  const byStart = new Map(result.rows.map((row) => [row.bucket, row]));
  const buckets = (empty ? [] : bucketsOf(from ?? "", to, request.interval)).map(({ start, end }): AggregateBucket => {
    const row = byStart.get(request.interval === "all" ? "" : start);
    return {
      start: start === "" ? null : start,
      end,
      articles: row?.articles ?? 0,
      ...(request.metrics.stories ? { stories: row?.stories ?? 0 } : {}),
      ...(request.metrics.outlets ? { outlets: row?.outlets ?? 0 } : {}),
      ...(signals.length > 0 ? { signals: signalStats(signals, row?.signals) } : {}),
      approximate: distinct && (row?.approximate ?? false),
    };
  });
  const { partial, coverage } = completeness(result.partitionsFailed, result.partitionsRead);
  return {
    interval: request.interval,
    from: from ?? null,
    to,
    metrics: request.metricNames,
    ...(signals.length > 0 ? { percentile: request.percentile } : {}),
    buckets,
    total: buckets.reduce((sum, b) => sum + b.articles, 0),
    approximate: buckets.some((b) => b.approximate),
    history_days: request.window.history_days,
    from_clamped: request.window.from_clamped,
    partial,
    coverage,
    attribution: ATTRIBUTION,
  };
}

/** Each signal asked for, its mean (rounded to 4 decimals) and percentile in the bucket; null where no match carries it. */
function signalStats(
  names: readonly SignalName[],
  found: AggregateRow["signals"],
): Record<string, { mean: number | null; percentile: number | null }> {
  const out: Record<string, { mean: number | null; percentile: number | null }> = {};
  for (const name of names) {
    const stat = found?.[name];
    out[name] = stat ? { mean: reportedMean(stat.mean), percentile: stat.percentile } : { mean: null, percentile: null };
  }
  return out;
}
