import type { ArticlePartition } from "./article-partition.js";
import { failMonth, type MonthConnections, type MonthRead } from "./month-reads.js";
import { byRecency, nthPublished } from "./federation/walk-merge.js";
import { mergeSorted } from "./merge-sorted.js";
import type { SearchPart } from "./partition-reads.js";
import type { PartitionHit } from "./partition-search.js";

// A browse page (newest first, no keywords, no facets) read whole on one read
// thread: every monthly index in turn, newest first, then the page's
// documents, in one call. Read month by month from the event loop, a page
// took seven round trips between the event loop and the light thread, each
// waiting its turn on both behind heavy queries; one trip leaves a browse a
// single wait on each.

/** How one monthly index of the browse went, and its count of matches (0 when not read). */
export type BrowsedMonth = MonthRead & { total: number; matched: boolean };

export interface BrowsePageArgs {
  /** The months to read, newest first. */
  months: string[];
  /** The page's end (offset + limit) and its start. */
  n: number;
  offset: number;
  /** When a month's read must start by (ms since the epoch); the newest month is read whatever it is. */
  deadline?: number;
}

export interface BrowsePage {
  months: BrowsedMonth[];
  /** The page, in order, each with its document (absent when its month could not be read for it). */
  page: Array<PartitionHit & { month: string; doc?: string }>;
}

/** `searchMonth` reads one month's part with the given floor (no candidate older than it can reach the page). */
export function browsePage(
  args: BrowsePageArgs,
  connections: MonthConnections,
  searchMonth: (partition: ArticlePartition, floor: string | undefined) => SearchPart,
): BrowsePage {
  const months: BrowsedMonth[] = [];
  const lists: Array<Array<PartitionHit & { month: string }>> = [];
  args.months.forEach((month, i) => {
    if (i > 0 && args.deadline !== undefined && Date.now() >= args.deadline) {
      months.push({ month, outcome: "not_started", total: 0, matched: false });
      return;
    }
    try {
      const part = searchMonth(connections.open(month), nthPublished(lists, args.n));
      const outcome = part.fieldUnavailable ? "field_unavailable" : part.timedOut ? "timed_out" : "read";
      months.push({ month, outcome, total: part.total, matched: part.matched });
      if (part.hits) lists.push(part.hits.map((hit) => ({ ...hit, month })));
    } catch (error) {
      months.push({ month, outcome: "read", total: 0, matched: false });
      failMonth(months, connections, month, error);
    }
  });
  const page: BrowsePage["page"] = mergeSorted(lists, byRecency, args.n).slice(args.offset);
  const byMonth = new Map<string, string[]>();
  for (const hit of page) {
    let ids = byMonth.get(hit.month);
    if (!ids) byMonth.set(hit.month, (ids = []));
    ids.push(hit.id);
  }
  for (const [month, ids] of byMonth) {
    try {
      const docs = connections.open(month).getDocs(ids);
      for (const hit of page)
        if (hit.month === month) {
          const doc = docs.get(hit.id);
          if (doc !== undefined) hit.doc = doc;
        }
    } catch (error) {
      // Its count stands; the month is unreadable for the page.
      failMonth(months, connections, month, error);
    }
  }
  return { months, page };
}
