import { extraCandidateBatches, type CreditRange } from "../pricing.js";

// What a call is charged once it ran: what it took, never above its estimate
// nor below its minimum; a call that did not say what it took is charged its
// worst case, the figure it was admitted on.

export function clampCharge(price: CreditRange, took: number | undefined): number {
  return Math.min(price.max, Math.max(price.min, took ?? price.max));
}

/** What a call's variable parts took, each as it reports it; a part the call did not have is left out. */
export interface TakenParts {
  /** Credits a cursor page took (1 to 3), in place of the base price. */
  cursorPage?: number | undefined;
  /** `entity_id` resolution: the credits it took (1 or 2 per id) for this many ids. */
  resolution?: { credits: number; ids: number } | undefined;
  /** Candidate batches the most expensive monthly index checked (a geographic or amount filter). */
  candidateBatches?: number | undefined;
  /** Passes an entity lookup ran (/entities: a second, whole-window pass when the first grouped nothing). */
  passes?: number | undefined;
}

/**
 * Every call's extra credits, counted one way: the price's minimum counts
 * each variable part at its least (a cursor page 1, an id 1, candidate checks
 * one batch, one pass), and what a part took beyond that is added.
 */
export function chargeTaken(price: CreditRange, taken: TakenParts): number {
  let extra = 0;
  if (taken.cursorPage !== undefined) extra += taken.cursorPage - 1;
  if (taken.resolution !== undefined) extra += taken.resolution.credits - taken.resolution.ids;
  if (taken.candidateBatches !== undefined) extra += extraCandidateBatches(taken.candidateBatches);
  if (taken.passes !== undefined) extra += taken.passes - 1;
  return price.min + extra;
}
