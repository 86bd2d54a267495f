import { CANDIDATE_BATCH } from "../search-query.js";

// What a read of the index took, as any engine can count it, and the prices
// that depend on it (spec section 8). A call across several indexes is charged
// what the most expensive index needed, not the sum: each figure is the
// largest any one index took.

export interface IndexUsage {
  /** Queries the most-asked index answered for this read. */
  indexQueries: number;
  /** Candidates one index examined at most against a geographic or amount filter (spec section 4, rule 6). */
  candidatesExamined: number;
}

export const NO_USAGE: IndexUsage = { indexQueries: 0, candidatesExamined: 0 };

/** The larger of two reads' usage, figure by figure (several indexes, or several reads of one call). */
export function mostExpensive(a: IndexUsage, b: IndexUsage): IndexUsage {
  return {
    indexQueries: Math.max(a.indexQueries, b.indexQueries),
    candidatesExamined: Math.max(a.candidatesExamined, b.candidatesExamined),
  };
}

/** Candidate batches a geographic or amount filter took: batches of CANDIDATE_BATCH (1 credit each). */
export function candidateBatches(usage: IndexUsage): number {
  return Math.ceil(usage.candidatesExamined / CANDIDATE_BATCH);
}

/**
 * An entity id's key lookup (spec: "1 to 2 credits to resolve"): 1 for the lookup, 2 when the window cut into an
 * index holding spellings and each spelling was checked against it (a second query there).
 */
export function lookupCredits(usage: IndexUsage): 1 | 2 {
  return usage.indexQueries >= 2 ? 2 : 1;
}
