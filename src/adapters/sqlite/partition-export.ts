import { encodeLines, encodeLinesInto, type EncodedLines, type ExportView } from "../../domain/export-lines.js";
import type { ArticlePartition } from "./article-partition.js";
import { decodeDoc } from "./doc-codec.js";
import { and, conditions, matchSet, whereClause, type Keyset, type PartitionSearch, type Params } from "./match-conditions.js";
import { candidates, countMatches, type PartitionHit } from "./partition-search.js";

// One monthly index's part of an export (sqlite-export.ts): its counts before
// the walk, then its matches in export order (published_at desc, id desc)
// from a keyset, a batch at a time, and their documents' lines.

export interface ExportCountPart {
  total: number;
  /** Matches strictly after `after`. */
  remaining: number;
  /** Timestamps at or after `after` in export order with more than `threshold` matches here (or those asked for). */
  groups: Array<{ published_at: string; matches: number; sent: number }>;
  /** The first match after `after` in export order (none when `remaining` is 0): the walk reads here no sooner. */
  first?: { published_at: string; id: string };
}

export interface ExportCountArgs {
  after?: { published_at: string; id: string } | undefined;
  /** Report timestamps holding more than this many matches... */
  threshold: number;
  /** ...or, when given, exactly these timestamps. */
  stamps?: string[] | undefined;
}

export function exportCountPart(partition: ArticlePartition, search: PartitionSearch, args: ExportCountArgs): ExportCountPart {
  const total = countMatches(partition, search);
  if (total === 0) return { total, remaining: 0, groups: [] };
  const { after } = args;
  let remaining = total;
  const params: Params = {};
  const matches = matchSet(search, params, "a.published_at AS p, a.id AS i");
  if (after !== undefined) {
    params.kp = after.published_at;
    params.ki = after.id;
    remaining = partition.statements
      .get(`SELECT count(*) FROM (${matches}) WHERE (p, i) < (@kp, @ki)`)
      .pluck()
      .get(params) as number;
  }
  const where: string[] = [];
  if (after !== undefined) where.push("p <= @kp");
  if (args.stamps !== undefined) {
    where.push("p IN (SELECT value FROM json_each(@stamps))");
    params.stamps = JSON.stringify(args.stamps);
  }
  params.threshold = args.stamps === undefined ? args.threshold : 0;
  const sent = after === undefined ? "0" : "sum(CASE WHEN p = @kp AND i >= @ki THEN 1 ELSE 0 END)";
  const groups = partition.statements
    .get(
      `SELECT p AS published_at, count(*) AS matches, ${sent} AS sent FROM (${matches}) ${whereClause(where)}
       GROUP BY p HAVING count(*) > @threshold`,
    )
    .all(params) as ExportCountPart["groups"];
  const [first] = remaining === 0 ? [] : exportKeys(partition, search, 1, after);
  return { total, remaining, groups, ...(first ? { first: { published_at: first.published_at, id: first.id } } : {}) };
}

/** The first `n` matches after `keyset`, in export order, with or without keywords. */
export function exportKeys(partition: ArticlePartition, search: PartitionSearch, n: number, keyset?: Keyset): PartitionHit[] {
  if (search.match === undefined) return candidates(partition, search, n, keyset);
  // Keywords select, they do not rank: the recency index orders, the full-text index only answers membership.
  const params: Params = { n, match: search.match };
  const where = conditions(search, params, { keyset });
  return partition.statements
    .get(
      `SELECT a.id, a.published_at, a.rowid FROM articles a INDEXED BY articles_recent
       WHERE a.rowid IN (SELECT rowid FROM articles_fts WHERE articles_fts MATCH @match)${and(where)}
       ORDER BY a.published_at DESC, a.id DESC LIMIT @n`,
    )
    .all(params) as PartitionHit[];
}

/** Lines of the documents asked for, in the order asked; `missing` lists (by position) those no longer stored. */
export interface ExportLinesPart {
  /** A view of the shared buffer given (`into`) when they fit in it, else bytes of their own. */
  lines: EncodedLines;
  /** The lines are in the shared buffer given. */
  filled: boolean;
  missing: number[];
}

/**
 * The lines of the documents `rowids` (the keys' own rows), made here so only bytes cross to the stream: written
 * into `into`, a buffer shared with the stream, when they fit, so nothing is allocated for them per read.
 */
export function exportLines(
  partition: ArticlePartition,
  rowids: readonly number[],
  view: ExportView,
  into?: SharedArrayBuffer,
): ExportLinesPart {
  // One statement for the batch's documents: a statement per document costs twice as much.
  const rows = partition.statements
    .get("SELECT rowid, doc FROM docs WHERE rowid IN (SELECT value FROM json_each(?))")
    .raw()
    .all(JSON.stringify(rowids)) as Array<[number, Buffer]>;
  const byRowid = new Map(rows);
  const docs: string[] = [];
  const missing: number[] = [];
  rowids.forEach((rowid, i) => {
    const doc = byRowid.get(rowid);
    // An article removed since it was counted is not exported.
    if (doc === undefined) missing.push(i);
    else docs.push(decodeDoc(doc));
  });
  if (into !== undefined) {
    const bytes = new Uint8Array(into);
    const ends = encodeLinesInto(docs, view, bytes);
    if (ends !== undefined) return { lines: { bytes: bytes.subarray(0, ends.at(-1) ?? 0), ends }, filled: true, missing };
  }
  return { lines: encodeLines(docs, view), filled: false, missing };
}
