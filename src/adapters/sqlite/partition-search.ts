import type { ArticlePartition } from "./article-partition.js";
import { FTS_SCORE } from "./bm25.js";
import {
  and,
  conditions,
  driverCondition,
  driverPostings,
  whereClause,
  type Keyset,
  type Params,
  type PartitionSearch,
  type ResolvedTerm,
  type SignalBounds,
} from "./match-conditions.js";

// A search in one monthly index: the first candidates of the page (by score on
// a keyword search, newest first on a browse) and the exact number of matches.

/** A candidate: enough to merge partitions. `rowid` breaks ties of equal scores. */
export interface PartitionHit {
  id: string;
  published_at: string;
  rowid: number;
  score?: number;
}

/** The first `n` candidates after `keyset`: by score on a keyword search, newest first on a browse. */
export function candidates(partition: ArticlePartition, search: PartitionSearch, n: number, keyset?: Keyset): PartitionHit[] {
  const params: Params = { n };
  if (search.match !== undefined) return ranked(partition, search, n);
  if (rangeOnly(search)) {
    // Only articles within the bounds are read, from the intensities' own index, then sorted.
    const where = conditions(search, params, { keyset, driver: 0 });
    return partition.statements
      .get(
        `SELECT a.id, a.published_at, a.rowid FROM signal_values s INDEXED BY signal_values_by_value
         CROSS JOIN articles a ON a.rowid = s.article
         WHERE ${rangeDriver(search, params)}${and(where.filter((w) => !w.includes("signal_values")))}
         ORDER BY a.published_at DESC, a.id DESC LIMIT @n`,
      )
      .all(params) as PartitionHit[];
  }
  if (browseByPostings(search, n)) {
    // The other terms are probed in the postings first: only the matches' rows are read and sorted.
    const where = conditions(search, params, { keyset, driver: 0, postingsOnly: search.terms.length > 1 });
    return partition.statements
      .get(
        `SELECT a.id, a.published_at, a.rowid FROM ${driverPostings(search)} CROSS JOIN articles a ON a.rowid = d.article
         WHERE ${driverCondition(search)}${and(where)} ORDER BY a.published_at DESC, a.id DESC LIMIT @n`,
      )
      .all(params) as PartitionHit[];
  }
  const where = conditions(search, params, { keyset });
  return partition.statements
    .get(
      `SELECT a.id, a.published_at, a.rowid FROM articles a INDEXED BY articles_recent
       ${whereClause(where)} ORDER BY a.published_at DESC, a.id DESC LIMIT @n`,
    )
    .all(params) as PartitionHit[];
}

/** BM25 top `n`, ties by rowid (newest written first), as the merge across partitions orders them. */
function ranked(partition: ArticlePartition, search: PartitionSearch, n: number): PartitionHit[] {
  const params: Params = { n, match: search.match as string };
  const where = conditions(search, params);
  if (where.length > 0) {
    return partition.statements
      .get(
        `SELECT a.id, a.published_at, a.rowid, ${FTS_SCORE} AS score
         FROM articles_fts JOIN articles a ON a.rowid = articles_fts.rowid
         WHERE articles_fts MATCH @match${and(where)} ORDER BY score DESC, a.rowid DESC LIMIT @n`,
      )
      .all(params) as PartitionHit[];
  }
  // Nothing to check on the article row: rank on the FTS index alone, then read the page's rows.
  const top = partition.statements
    .get(
      `SELECT rowid, ${FTS_SCORE} AS score FROM articles_fts WHERE articles_fts MATCH @match ORDER BY score DESC, rowid DESC LIMIT @n`,
    )
    .all(params) as Array<{ rowid: number; score: number }>;
  if (top.length === 0) return [];
  const rows = partition.statements
    .get("SELECT a.rowid, a.id, a.published_at FROM json_each(?) j JOIN articles a ON a.rowid = j.value")
    .all(JSON.stringify(top.map((t) => t.rowid))) as Array<{ rowid: number; id: string; published_at: string }>;
  const byRowid = new Map(rows.map((r) => [r.rowid, r]));
  return top.flatMap((t) => {
    const row = byRowid.get(t.rowid);
    return row ? [{ ...row, score: t.score }] : [];
  });
}

/**
 * A browse reads either the recency index, checking each article against the
 * filters, or the rarest filter's postings, sorting them. Scanning wins when
 * matches are dense enough that `n` of them come early.
 */
function browseByPostings(search: PartitionSearch, n: number): boolean {
  const rarest = search.terms[0];
  if (rarest === undefined) return false;
  const total = Math.max(1, search.articles);
  const density = search.terms.reduce((d, t) => d * Math.min(1, t.docs / total), 1);
  const scanned = Math.min(total, n / Math.max(density, 1 / total));
  const checks = search.terms.length;
  return rarest.docs * (2 + (checks - 1) * 0.5) < scanned * (1 + checks * 0.5);
}

/** Exact number of matches. */
export function countMatches(partition: ArticlePartition, search: PartitionSearch): number {
  const params: Params = {};
  if (search.match !== undefined) {
    params.match = search.match;
    const where = conditions(search, params);
    const from =
      where.length === 0
        ? "FROM articles_fts WHERE articles_fts MATCH @match"
        : `FROM articles_fts JOIN articles a ON a.rowid = articles_fts.rowid WHERE articles_fts MATCH @match${and(where)}`;
    return partition.statements.get(`SELECT count(*) ${from}`).pluck().get(params) as number;
  }
  const windowed = search.from !== undefined || search.to !== undefined;
  if (rangeOnly(search)) {
    const where = conditions(search, params, { driver: 0 }).filter((w) => !w.includes("signal_values"));
    const from = windowed
      ? "signal_values s INDEXED BY signal_values_by_value CROSS JOIN articles a ON a.rowid = s.article"
      : "signal_values s INDEXED BY signal_values_by_value";
    return partition.statements
      .get(`SELECT count(*) FROM ${from} WHERE ${rangeDriver(search, params)}${windowed ? and(where) : ""}`)
      .pluck()
      .get(params) as number;
  }
  if (search.terms.length === 0) {
    if (!windowed) return search.articles;
    const where = conditions(search, params);
    return partition.statements
      .get(`SELECT count(*) FROM articles a INDEXED BY articles_recent ${whereClause(where)}`)
      .pluck()
      .get(params) as number;
  }
  const single = search.terms.length === 1 && (search.terms[0] as ResolvedTerm).ids === undefined && search.ranges.length === 0;
  if (!windowed && single) return (search.terms[0] as ResolvedTerm).docs;
  // Without a window, postings alone answer: no article row is read.
  const where = conditions(search, params, { driver: 0, postingsOnly: !windowed });
  const postings = driverPostings(search);
  const from = windowed ? `${postings} CROSS JOIN articles a ON a.rowid = d.article` : postings;
  return partition.statements
    .get(`SELECT count(*) FROM ${from} WHERE ${driverCondition(search)}${and(where)}`)
    .pluck()
    .get(params) as number;
}

/**
 * The query is one signal's range and nothing else but a window: its matches
 * are exactly the articles of the `(signal, value)` index within the bounds,
 * usually far fewer than the articles carrying the signal.
 */
function rangeOnly(search: PartitionSearch): boolean {
  const [range] = search.ranges;
  const [term] = search.terms;
  return (
    search.match === undefined &&
    search.ranges.length === 1 &&
    search.terms.length === 1 &&
    term?.field === "signal" &&
    range !== undefined
  );
}

/** The driving condition on `s`, the range's rows of the `(signal, value)` index. */
function rangeDriver(search: PartitionSearch, params: Params): string {
  const range = search.ranges[0] as SignalBounds;
  params.rc = range.code;
  params.rmin = range.min ?? Number.NEGATIVE_INFINITY;
  params.rmax = range.max ?? Number.POSITIVE_INFINITY;
  return "s.signal = @rc AND s.value >= @rmin AND s.value <= @rmax";
}
