import { inArea, boundingBox } from "../../domain/geo-area.js";
import { foldValue } from "../../domain/filter-fields.js";
import { CANDIDATE_BATCH, CANDIDATE_LIMIT, type CandidateCheck } from "../../domain/search-query.js";
import type { ArticlePartition } from "./article-partition.js";
import type { Params, PartitionSearch } from "./match-conditions.js";
import { candidates, countMatches, type PartitionHit } from "./partition-search.js";

// The geographic and amount filters in one monthly index (spec section 4,
// rule 6): the rest of the query gives its first candidates in its own order
// (best score first, or newest first), at most CANDIDATE_LIMIT; they are
// checked in batches of CANDIDATE_BATCH against the cities and amounts kept
// at write time (partition-schema.ts DERIVED_SCHEMA). When the query matched
// more than were checked, the total is estimated from the share that passed.

export interface CheckedCandidates {
  /** Candidates that passed, in the query's order. */
  passed: PartitionHit[];
  /** Matches here: exact when every candidate was checked, else estimated. */
  total: number;
  /** The query had more candidates than were checked: `total` is an estimate. */
  cut: boolean;
  /** Candidates checked, in batches of CANDIDATE_BATCH (what the call is charged for). */
  examined: number;
}

export function checkCandidates(partition: ArticlePartition, search: PartitionSearch, check: CandidateCheck): CheckedCandidates {
  const matches = countMatches(partition, search);
  const pool = candidates(partition, search, Math.min(CANDIDATE_LIMIT, matches));
  const passed: PartitionHit[] = [];
  for (let at = 0; at < pool.length; at += CANDIDATE_BATCH) {
    const batch = pool.slice(at, at + CANDIDATE_BATCH);
    const ok = passing(
      partition,
      batch.map((hit) => hit.rowid),
      check,
    );
    for (const hit of batch) if (ok.has(hit.rowid)) passed.push(hit);
  }
  const cut = matches > pool.length;
  const total = cut ? Math.round((passed.length * matches) / pool.length) : passed.length;
  return { passed, total, cut, examined: pool.length };
}

/** The rowids among `rowids` that satisfy every part of the check. */
function passing(partition: ArticlePartition, rowids: readonly number[], check: CandidateCheck): Set<number> {
  let ok: Set<number> | undefined;
  const ids = JSON.stringify(rowids);
  if (check.area !== undefined) {
    const area = check.area;
    const box = boundingBox(area);
    const params: Params = { ids, s: box.south, n: box.north, w: box.west, e: box.east };
    const lon = box.west <= box.east ? "p.longitude BETWEEN @w AND @e" : "(p.longitude >= @w OR p.longitude <= @e)";
    const rows = partition.statements
      .get(
        `SELECT p.article, p.latitude, p.longitude FROM json_each(@ids) j JOIN places p ON p.article = j.value
         WHERE p.latitude BETWEEN @s AND @n AND ${lon}`,
      )
      .all(params) as Array<{ article: number; latitude: number; longitude: number }>;
    ok = new Set(rows.filter((r) => inArea(area, r.latitude, r.longitude)).map((r) => r.article));
  }
  if (check.amount !== undefined) {
    const { min, max, object } = check.amount;
    const params: Params = { ids };
    const where: string[] = [];
    if (min !== undefined) {
      where.push("m.number >= @min");
      params.min = min;
    }
    if (max !== undefined) {
      where.push("m.number <= @max");
      params.max = max;
    }
    if (object !== undefined) {
      where.push("m.object = @object");
      params.object = foldValue(object);
    }
    const sql = `SELECT DISTINCT m.article FROM json_each(@ids) j JOIN amounts m ON m.article = j.value
      ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}`;
    const found = new Set(partition.statements.get(sql).pluck().all(params) as number[]);
    ok = ok === undefined ? found : new Set([...ok].filter((rowid) => found.has(rowid)));
  }
  return ok ?? new Set(rowids);
}
