import { mostExpensive, NO_USAGE, type IndexUsage } from "../../../domain/billing/index-usage.js";
import type { ArticleQuery } from "../../../domain/search-query.js";
import type { CandidatesChecked } from "../../../ports/article-search.js";
import type { RankFeatures } from "../bm25.js";
import type { Candidate } from "../cursor-page.js";
import { mergeSorted } from "../merge-sorted.js";
import type { CheckedPart, QueryArgs } from "../partition-reads.js";
import type { PartitionHit } from "../partition-search.js";
import type { Walk } from "../partition-walker.js";

// What every cross-month read shares: the query as each monthly index is asked
// it, and how the indexes' answers, failures and usage are put together.

/** The query as each monthly index is asked it. */
export function queryArgs(query: Pick<ArticleQuery, "filters" | "check">, match: string | undefined): QueryArgs {
  return {
    filters: query.filters,
    ...(match === undefined ? {} : { match }),
    ...(query.check === undefined ? {} : { check: query.check }),
  };
}

/** Candidates checked across monthly indexes: charged for the most one index examined, not the sum. */
export function addChecked(sum: CheckedSum | undefined, part: CheckedPart): CheckedSum {
  return {
    examined: Math.max(sum?.examined ?? 0, part.examined),
    approximate: (sum?.approximate ?? false) || part.cut,
    passed: (sum?.passed ?? 0) + part.passed,
    total: (sum?.total ?? 0) + part.total,
  };
}

/** Candidates checked so far, and the matches they stand for (estimated past the cut). */
export type CheckedSum = CandidatesChecked & { examined: number; total: number };

/** A read's usage: one query in each index it read (none when it read none), and the candidates checked. */
export function usageOf(walk: Walk, checked: CheckedSum | undefined): IndexUsage {
  const read = walk.read.length > 0 ? { indexQueries: 1, candidatesExamined: 0 } : NO_USAGE;
  return mostExpensive(read, { indexQueries: 0, candidatesExamined: checked?.examined ?? 0 });
}

/** Indexes read in full, less those a later read of the same query (documents, a further page) failed on. */
export function readOf(walk: Walk): string[] {
  return walk.read.filter((m) => !walk.failed.some((f) => f.partition === m));
}

/** Adds the failures of a later walk of the same query to its first. */
export function absorb(walk: Walk, later: Walk): void {
  for (const failure of later.failed) {
    if (!walk.failed.some((f) => f.partition === failure.partition)) walk.failed.push(failure);
  }
}

/** published_at of the n-th newest candidate so far; undefined while there are fewer than n. */
export function nthPublished(lists: ReadonlyArray<readonly Candidate[]>, n: number): string | undefined {
  if (lists.reduce((sum, l) => sum + l.length, 0) < n) return undefined;
  return mergeSorted(lists, byRecency, n)[n - 1]?.published_at;
}

/**
 * The partition's candidates, marked with the month they came from and what corpus-wide scoring needs (in place:
 * there can be thousands).
 */
export function tagged(hits: PartitionHit[], month: string, features?: RankFeatures[]): Candidate[] {
  hits.forEach((hit, i) => {
    (hit as Candidate).month = month;
    const f = features?.[i];
    if (f) (hit as Candidate).features = f;
  });
  return hits as Candidate[];
}

/** Score, then the same tie-break every partition ranks with: newer partition, then higher rowid. */
export function byScore(a: Candidate, b: Candidate): number {
  return (b.score ?? 0) - (a.score ?? 0) || (a.month === b.month ? b.rowid - a.rowid : a.month < b.month ? 1 : -1);
}

export function byRecency(a: { published_at: string; id: string }, b: { published_at: string; id: string }): number {
  if (a.published_at !== b.published_at) return a.published_at < b.published_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
