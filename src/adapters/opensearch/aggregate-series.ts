import type { SignalName } from "../../domain/vocabularies/signals-v1.js";
import type { AggregateQuery, AggregateResult, AggregateRow } from "../../ports/article-search.js";
import { toStamp } from "../../shared/timestamps.js";
import type { MonthReader } from "./month-reader.js";
import { articleQuery, signalPath } from "./query-dsl.js";
import type { Aggregations } from "./search-request.js";

// GET /aggregate as one search with aggregations: a `date_histogram` on the
// browse time (UTC; weeks start on Monday, as ISO weeks do), and per bucket
// the earliest and latest match, distinct stories and publishers as
// `cardinality` (a HyperLogLog++ sketch: counts at or above its precision
// threshold are estimates, and the row says so), and per signal the mean and
// the percentile (a t-digest estimate) of the matches carrying it.

/** Distinct values below this are counted exactly (the sketch keeps every hash until then). */
export const CARDINALITY_PRECISION = 3000;

interface Metric {
  value: number | null;
  value_as_string?: string;
}

interface SignalAggregate {
  doc_count: number;
  mean: Metric;
  rank: { values: Record<string, number | null> };
}

type Bucket = { key?: number; doc_count: number } & Record<string, unknown>;

function bucketMetrics(query: AggregateQuery): Aggregations {
  const aggs: Aggregations = {
    first: { min: { field: "indexed.stamp" } },
    last: { max: { field: "indexed.stamp" } },
  };
  if (query.metrics.stories) aggs.stories = { cardinality: { field: "story_id", precision_threshold: CARDINALITY_PRECISION } };
  if (query.metrics.outlets) aggs.outlets = { cardinality: { field: "source", precision_threshold: CARDINALITY_PRECISION } };
  for (const name of query.signals?.names ?? []) {
    const path = signalPath(name);
    aggs[`signal_${name}`] = {
      filter: { range: { [path]: { gt: 0 } } },
      aggs: {
        mean: { avg: { field: path } },
        rank: { percentiles: { field: path, percents: [query.signals?.percentile ?? 50] } },
      },
    };
  }
  return aggs;
}

export async function aggregateSeries(reader: MonthReader, query: AggregateQuery): Promise<AggregateResult> {
  const metrics = bucketMetrics(query);
  const aggs: Aggregations =
    query.interval === "all"
      ? metrics
      : {
          series: {
            date_histogram: { field: "indexed.stamp", calendar_interval: query.interval, min_doc_count: 1 },
            aggs: metrics,
          },
        };
  const read = await reader.read(
    query.filters,
    { query: articleQuery(query.keywords, query.filters), size: 0, track_total_hits: true, aggs },
    { budgetMs: query.budgetMs },
  );
  const response = read.response;
  if (!response) return { rows: [], ...read.coverage };
  const buckets: Bucket[] =
    query.interval === "all"
      ? (response.hits.total?.value ?? 0) > 0
        ? [{ doc_count: response.hits.total?.value ?? 0, ...(response.aggregations ?? {}) }]
        : []
      : ((response.aggregations?.series as { buckets?: Bucket[] } | undefined)?.buckets ?? []);
  return { rows: buckets.map((b) => toRow(b, query)), ...read.coverage };
}

function toRow(bucket: Bucket, query: AggregateQuery): AggregateRow {
  const metric = (name: string): Metric | undefined => bucket[name] as Metric | undefined;
  const row: AggregateRow = {
    bucket: bucket.key === undefined ? "" : toStamp(bucket.key),
    articles: bucket.doc_count,
    first: metric("first")?.value_as_string ?? null,
    last: metric("last")?.value_as_string ?? null,
    approximate: false,
  };
  if (query.metrics.stories) row.stories = metric("stories")?.value ?? 0;
  if (query.metrics.outlets) row.outlets = metric("outlets")?.value ?? 0;
  row.approximate = (row.stories ?? 0) >= CARDINALITY_PRECISION || (row.outlets ?? 0) >= CARDINALITY_PRECISION;
  if (query.signals) {
    const signals: NonNullable<AggregateRow["signals"]> = {};
    for (const name of query.signals.names) {
      const s = bucket[`signal_${name}`] as SignalAggregate | undefined;
      if (!s || s.doc_count === 0 || s.mean.value === null) continue;
      const percentile = Object.values(s.rank.values)[0];
      signals[name as SignalName] = { mean: s.mean.value, percentile: percentile ?? s.mean.value, articles: s.doc_count };
    }
    row.signals = signals;
  }
  return row;
}
