import type { Interval } from "../../domain/aggregate/buckets.js";
import type { AggregateRow } from "../../ports/article-search.js";
import type { ArticlePartition } from "./article-partition.js";
import { matchSet, type Params, type PartitionSearch } from "./match-conditions.js";

// A time series in one monthly index: per bucket of published_at (UTC), the
// matches, and on request their distinct stories and distinct publishers, in
// one grouped pass over the match set.

/** A bucket as the port's row (ports/article-search.ts), counted in this index alone. */
export interface AggregatePartRow extends Omit<AggregateRow, "signals" | "approximate"> {
  /** With signal metrics: per signal code, the intensities of the matches carrying it. */
  signals?: Record<number, number[]>;
}

/** SQL of a bucket's start from `p` (published_at), with what pads it to 14 digits. */
const BUCKET_SQL: Record<Interval, { sql: string; pad: string }> = {
  hour: { sql: "substr(p, 1, 10)", pad: "0000" },
  day: { sql: "substr(p, 1, 8)", pad: "000000" },
  // 'weekday 0' moves forward to the next Sunday (a Sunday stays), and six days back is that week's Monday.
  week: {
    sql: "strftime('%Y%m%d', substr(p, 1, 4) || '-' || substr(p, 5, 2) || '-' || substr(p, 7, 2), 'weekday 0', '-6 days')",
    pad: "000000",
  },
  month: { sql: "substr(p, 1, 6)", pad: "01000000" },
  all: { sql: "''", pad: "" },
};

/** The article's story term: the first 4 bytes of its doc values (term-blob.ts), 0 when it is in none. */
const STORY_SQL = "nullif(substr(terms, 1, 4), x'00000000')";

export function aggregatePart(
  partition: ArticlePartition,
  search: PartitionSearch,
  interval: Interval,
  metrics: { stories: boolean; outlets: boolean; signals?: readonly number[] },
): AggregatePartRow[] {
  const params: Params = {};
  const bucket = BUCKET_SQL[interval];
  const columns = ["count(*) AS articles", "min(p) AS first", "max(p) AS last"];
  if (metrics.stories) columns.push(`count(DISTINCT ${STORY_SQL}) AS stories`);
  if (metrics.outlets) columns.push("count(DISTINCT source) AS outlets");
  const matches = matchSet(
    search,
    params,
    "a.published_at AS p, a.source AS source, a.source_type AS source_type, a.publisher_country AS publisher_country, a.language AS language, a.terms AS terms",
    { probeFirst: true },
  );
  const rows = partition.statements
    .get(`SELECT ${bucket.sql} AS bucket, ${columns.join(", ")} FROM (${matches}) GROUP BY 1`)
    .all(params) as AggregatePartRow[];
  if (metrics.signals !== undefined && metrics.signals.length > 0)
    addSignalValues(partition, search, interval, metrics.signals, rows);
  return rows.map((row) => ({ ...row, bucket: row.bucket === "" ? "" : `${row.bucket}${bucket.pad}` }));
}

/** Per bucket, the intensities of the signals `codes` among the matches carrying them (signal metrics' mean and percentile). */
function addSignalValues(
  partition: ArticlePartition,
  search: PartitionSearch,
  interval: Interval,
  codes: readonly number[],
  rows: AggregatePartRow[],
): void {
  const params: Params = { codes: JSON.stringify(codes) };
  const matches = matchSet(search, params, "a.published_at AS p, a.rowid AS article", { probeFirst: true });
  const byBucket = new Map(rows.map((row) => [row.bucket, row]));
  const sql = `SELECT ${BUCKET_SQL[interval].sql} AS bucket, s.signal AS code, s.value AS value FROM (${matches}) m
    JOIN signal_values s ON s.article = m.article WHERE s.signal IN (SELECT value FROM json_each(@codes))`;
  for (const { bucket, code, value } of partition.statements.get(sql).iterate(params) as Iterable<{
    bucket: string;
    code: number;
    value: number;
  }>) {
    const row = byBucket.get(bucket);
    if (row === undefined) continue;
    row.signals ??= {};
    (row.signals[code] ??= []).push(value);
  }
}
