import type Database from "better-sqlite3";
import type { Interval } from "../../domain/aggregate/buckets.js";
import { FILTER_FIELDS } from "../../domain/filter-fields.js";
import type { ArticlePartition } from "./article-partition.js";
import { matchSet, type Params, type PartitionSearch } from "./match-conditions.js";
import { decodeTerms, termOfField } from "./term-blob.js";

// A time series in one monthly index: per bucket of published_at (UTC), the
// matches, and on request their distinct stories and distinct publishers, in
// one grouped pass over the match set.

export interface AggregatePartRow {
  /** The bucket's start, 14-digit; "" for `all`. */
  bucket: string;
  articles: number;
  stories?: number;
  outlets?: number;
  /** Earliest and latest published_at among the bucket's matches (null when none carries one). */
  first: string | null;
  last: string | null;
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

const STORY_CODE = FILTER_FIELDS.story_id.code;
const withStoryFunction = new WeakSet<Database.Database>();

/** `story_term(terms)`: the article's story_id term, read from its doc values. Registered once per connection. */
function registerStoryTerm(db: Database.Database): void {
  if (withStoryFunction.has(db)) return;
  db.function("story_term", { deterministic: true }, (blob: unknown) =>
    blob instanceof Uint8Array ? (termOfField(decodeTerms(blob), STORY_CODE) ?? null) : null,
  );
  withStoryFunction.add(db);
}

export function aggregatePart(
  partition: ArticlePartition,
  search: PartitionSearch,
  interval: Interval,
  metrics: { stories: boolean; outlets: boolean },
): AggregatePartRow[] {
  const params: Params = {};
  const bucket = BUCKET_SQL[interval];
  const columns = ["count(*) AS articles", "min(p) AS first", "max(p) AS last"];
  if (metrics.stories) {
    registerStoryTerm(partition.db);
    columns.push("count(DISTINCT story_term(terms)) AS stories");
  }
  if (metrics.outlets) columns.push("count(DISTINCT source) AS outlets");
  const matches = matchSet(search, params, "a.published_at AS p, a.source AS source, a.terms AS terms");
  const rows = partition.statements
    .get(`SELECT ${bucket.sql} AS bucket, ${columns.join(", ")} FROM (${matches}) GROUP BY 1`)
    .all(params) as AggregatePartRow[];
  return rows.map((row) => ({ ...row, bucket: row.bucket === "" ? "" : `${row.bucket}${bucket.pad}` }));
}
