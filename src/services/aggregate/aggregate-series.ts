import { bucketsOf } from "../../domain/aggregate/buckets.js";
import { ATTRIBUTION } from "../../domain/attribution.js";
import type { AggregateQuery, IndexBackend } from "../../ports/index-backend.js";
import type { AggregateBucket, AggregateResponse } from "../../schemas/aggregate-responses.js";
import { completeness } from "../search/coverage.js";
import { assertSomethingRead, QUERY_BUDGET_MS } from "../search/search-articles.js";
import type { AggregateRequest } from "./aggregate-request.js";

// GET /aggregate: the match set counted per time bucket. Each monthly index
// counts its own matches; a bucket whose articles sit in more than one index
// (an article's month is the month it was collected, and publication can
// precede it) sums their distinct stories and outlets, and says so.

export async function aggregateSeries(index: IndexBackend, request: AggregateRequest): Promise<AggregateResponse> {
  const query: AggregateQuery = {
    filters: request.filters,
    interval: request.interval,
    metrics: { stories: request.metrics.stories, outlets: request.metrics.outlets },
    budgetMs: QUERY_BUDGET_MS,
  };
  if (request.keywords) query.keywords = request.keywords;
  const result = await index.aggregate(query);
  assertSomethingRead(result);

  const distinct = request.metrics.stories || request.metrics.outlets;
  const byStart = new Map(result.rows.map((row) => [row.bucket, row]));
  const { from, to } = request.window;
  const buckets = bucketsOf(from ?? "", to, request.interval).map(({ start, end }): AggregateBucket => {
    const row = byStart.get(request.interval === "all" ? "" : start);
    return {
      start: start === "" ? null : start,
      end,
      articles: row?.articles ?? 0,
      ...(request.metrics.stories ? { stories: row?.stories ?? 0 } : {}),
      ...(request.metrics.outlets ? { outlets: row?.outlets ?? 0 } : {}),
      approximate: distinct && (row?.indexes ?? 0) > 1,
    };
  });
  const { partial, coverage } = completeness(result.partitionsFailed, result.partitionsRead);
  return {
    interval: request.interval,
    from: from ?? null,
    to,
    metrics: request.metricNames,
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
