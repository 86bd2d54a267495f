import { bucketStartMs, type Interval } from "../../domain/aggregate/buckets.js";
import { windowPieces } from "../../domain/aggregate/window-pieces.js";
import { FILTER_FIELDS } from "../../domain/filter-fields.js";
import { parseStamp, toStamp } from "../../shared/timestamps.js";
import type { ArticlePartition } from "./article-partition.js";
import type { PartitionSearch } from "./match-conditions.js";
import type { AggregatePartRow } from "./partition-aggregate.js";
import { decodeTerms, termOfField } from "./term-blob.js";
import { daySpan, hourSpan } from "./time-tally.js";

// A time series in one monthly index read from its time tallies
// (partition-schema.ts TALLY_SCHEMA) rather than its articles: when the query
// has no keywords, no filter and no signal metric, only a window. The window
// is cut into whole days, whole hours at its edges and at most two stretches
// shorter than an hour (domain/aggregate/window-pieces.ts); a bucket that is
// one whole span reads its row, one made of several (a week, a month, `all`, a
// day the window cuts) counts its distinct stories and publishers over the
// member rows of its spans and the stretches' articles. Exact either way.

interface TallyRow {
  span: string;
  articles: number;
  stories: number;
  outlets: number;
  first: string | null;
  last: string | null;
}

/** What a bucket is made of in this index. */
interface BucketParts {
  row: AggregatePartRow;
  /** The spans read from the tallies, with the row of the first (used alone when it is the only part). */
  spans: string[];
  only?: TallyRow;
  /** Story and source terms of the articles read from the window's stretches. */
  stories: number[];
  outlets: number[];
  stretches: number;
}

const STORY_CODE = FILTER_FIELDS.story_id.code;
const SOURCE_CODE = FILTER_FIELDS.source.code;

/** True when the tallies can answer the series: a built index, and nothing asked but a window and the counts. */
export function talliesAnswer(
  partition: ArticlePartition,
  search: PartitionSearch,
  metrics: { signals?: readonly number[] },
): boolean {
  const windowOnly = search.match === undefined && search.terms.length === 0 && search.ranges.length === 0;
  return windowOnly && (metrics.signals?.length ?? 0) === 0 && partition.talliesBuilt();
}

export function tallyAggregatePart(
  partition: ArticlePartition,
  search: PartitionSearch,
  interval: Interval,
  metrics: { stories: boolean; outlets: boolean },
): AggregatePartRow[] {
  const bounds = partition.stats().bounds;
  if (bounds === undefined) return [];
  // Without a bound, the index's own days: nothing lies outside them.
  const from = search.from ?? `${bounds.oldest.slice(0, 8)}000000`;
  const to = search.to ?? `${bounds.newest.slice(0, 8)}235959`;
  const pieces = windowPieces(from, to, interval === "hour" ? "hour" : "day");
  const buckets = new Map<string, BucketParts>();
  const partsOf = (stamp: string): BucketParts => {
    const key = bucketOf(stamp, interval);
    let parts = buckets.get(key);
    if (parts === undefined) {
      parts = { row: { bucket: key, articles: 0, first: null, last: null }, spans: [], stories: [], outlets: [], stretches: 0 };
      buckets.set(key, parts);
    }
    return parts;
  };

  const spanRows = partition.statements.get(
    "SELECT span, articles, stories, outlets, first, last FROM tallies WHERE span BETWEEN ? AND ?",
  );
  const ranges: Array<[string, string]> = pieces.hours.map((h) => [hourSpan(h.first), hourSpan(h.last)]);
  if (pieces.days) ranges.push([daySpan(pieces.days.first), daySpan(pieces.days.last)]);
  for (const [first, last] of ranges) {
    for (const tally of spanRows.iterate(first, last) as Iterable<TallyRow>) {
      if (tally.articles === 0) continue;
      // A span's start: its digits padded to 14.
      const parts = partsOf(tally.span.slice(1).padEnd(14, "0"));
      if (parts.spans.length === 0) parts.only = tally;
      parts.spans.push(tally.span);
      widen(parts.row, tally.articles, tally.first, tally.last);
    }
  }

  const stretch = partition.statements.get(
    "SELECT published_at, terms FROM articles INDEXED BY articles_recent WHERE published_at BETWEEN ? AND ?",
  );
  for (const { from: start, to: end } of pieces.rest) {
    const touched = new Set<BucketParts>();
    for (const article of stretch.iterate(start, end) as Iterable<{ published_at: string; terms: Buffer }>) {
      const parts = partsOf(article.published_at);
      touched.add(parts);
      widen(parts.row, 1, article.published_at, article.published_at);
      const ids = decodeTerms(article.terms);
      const story = termOfField(ids, STORY_CODE);
      const source = termOfField(ids, SOURCE_CODE);
      if (story !== undefined) parts.stories.push(story);
      if (source !== undefined) parts.outlets.push(source);
    }
    for (const parts of touched) parts.stretches++;
  }

  const rows: AggregatePartRow[] = [];
  for (const parts of buckets.values()) {
    if (parts.row.articles === 0) continue;
    const whole = parts.stretches === 0 && parts.spans.length === 1 ? parts.only : undefined;
    if (metrics.stories)
      parts.row.stories = whole ? whole.stories : distinct(partition, "tally_stories", "story", parts.spans, parts.stories);
    if (metrics.outlets)
      parts.row.outlets = whole ? whole.outlets : distinct(partition, "tally_outlets", "source", parts.spans, parts.outlets);
    rows.push(parts.row);
  }
  return rows;
}

/** Distinct members of the spans' rows in `table`, with those read from articles: counted by SQLite, not row by row here. */
function distinct(
  partition: ArticlePartition,
  table: string,
  column: string,
  spans: readonly string[],
  extra: readonly number[],
): number {
  const inSpans = `SELECT ${column} FROM ${table} WHERE span IN (SELECT value FROM json_each(@spans))`;
  const sql =
    extra.length === 0
      ? `SELECT count(DISTINCT ${column}) FROM ${table} WHERE span IN (SELECT value FROM json_each(@spans))`
      : `SELECT count(*) FROM (${inSpans} UNION SELECT value FROM json_each(@extra))`;
  return partition.statements
    .get(sql)
    .pluck()
    .get({ spans: JSON.stringify(spans), ...(extra.length === 0 ? {} : { extra: JSON.stringify(extra) }) }) as number;
}

function widen(row: AggregatePartRow, articles: number, first: string | null, last: string | null): void {
  row.articles += articles;
  if (first !== null && (row.first === null || first < row.first)) row.first = first;
  if (last !== null && (row.last === null || last > row.last)) row.last = last;
}

/** The bucket holding a 14-digit stamp, as partition-aggregate.ts names it: its start, "" for `all`. */
function bucketOf(stamp: string, interval: Interval): string {
  if (interval === "all") return "";
  return toStamp(bucketStartMs(parseStamp(stamp) ?? 0, interval));
}
