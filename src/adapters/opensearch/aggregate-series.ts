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
// the nearest-rank percentile of the matches carrying it. The percentile is
// exact, as the docs promise in both shapes: each shard sends the bucket's
// intensities and the reduce picks the value at the rank
// (domain/aggregate/percentile-rank.ts), where the node's `percentiles`
// (a t-digest) would interpolate between values.

/** Distinct values below this are counted exactly (the sketch keeps every hash until then). */
export const CARDINALITY_PRECISION = 3000;

interface Metric {
  value: number | null;
  value_as_string?: string;
}

interface SignalAggregate {
  doc_count: number;
  mean: Metric;
  rank: { value: number | null };
}

/** nearestRankOf in Painless: the smallest value with at least `p` percent of the values at or below it. */
const NEAREST_RANK = {
  init_script: "state.values = new ArrayList()",
  map_script: "state.values.add(doc[params.field].value)",
  combine_script: "return state.values",
  reduce_script: `
    List all = new ArrayList();
    for (s in states) { if (s != null) { all.addAll(s); } }
    if (all.isEmpty()) { return null; }
    Collections.sort(all);
    int rank = (int) Math.max(1, Math.ceil(params.percentile * all.size() / 100.0 - 1e-9));
    return all.get(rank - 1);`,
};

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
        rank: {
          scripted_metric: { ...NEAREST_RANK, params: { field: path, percentile: query.signals?.percentile ?? 50 } },
        },
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
      signals[name as SignalName] = { mean: s.mean.value, percentile: s.rank.value ?? s.mean.value, articles: s.doc_count };
    }
    row.signals = signals;
  }
  return row;
}
