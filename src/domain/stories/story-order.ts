// The orders a story listing is sorted in (GET /stories `sort`). Every order is
// total: ties fall to the newest matching member, then to the story id (newest
// first), so pages are stable and any engine that sorts the same way pages the
// same way.

/** A listing by size: largest first by `count` (members) or by `outlets` (distinct publishers). */
export type SizeOrder = "count" | "outlets";

/** What the orders compare: a story's newest matching member and, for the size orders, its sizes. */
export interface RankedStory {
  story_id: string;
  newest: string;
}

export interface SizedStory extends RankedStory {
  count: number;
  outlets: number;
}

/** Newest matching member first; ties by story id, newest first. */
export function byRecency(a: RankedStory, b: RankedStory): number {
  if (a.newest !== b.newest) return a.newest < b.newest ? 1 : -1;
  return a.story_id < b.story_id ? 1 : a.story_id > b.story_id ? -1 : 0;
}

/** Largest first by `order`, then by the other size, then by recency. */
export function bySize(order: SizeOrder): (a: SizedStory, b: SizedStory) => number {
  return order === "count"
    ? (a, b) => b.count - a.count || b.outlets - a.outlets || byRecency(a, b)
    : (a, b) => b.outlets - a.outlets || b.count - a.count || byRecency(a, b);
}
