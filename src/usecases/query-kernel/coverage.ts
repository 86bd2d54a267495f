import type { Coverage } from "../../domain/coverage.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import { ApiError } from "../../shared/api-error.js";

// How complete an answer is, from which monthly indexes could not be read
// (what every query's partition walk reports), and when an answer is none.
//
// - The newest index unreadable is `recent_unavailable` (retry shortly).
// - An older index that could not be read (missing, locked, damaged) is
//   `range_too_wide`: retrying unchanged meets the same index, narrowing
//   `from`/`to` past it gives a complete answer. It is never `timed_out`.
// - An index left unread or read in part when the budget ran out, with no
//   unreadable one, is `timed_out` (retry, or narrow the range).
// - An index built without a derived field the query needs is
//   `field_unavailable`, reported only when nothing else failed.

export interface Completeness {
  partial: boolean;
  coverage: Coverage;
}

export function completeness(failed: readonly PartitionFailure[], read: readonly string[]): Completeness {
  if (failed.length === 0) return { partial: false, coverage: "complete" };
  // An index built without a field the query needs: retrying does not help, `newsindex reindex` does.
  if (failed.every((f) => f.kind === "field_unavailable")) return { partial: true, coverage: "field_unavailable" };
  failed = failed.filter((f) => f.kind !== "field_unavailable");
  const newestRead = read.reduce((max, m) => (m > max ? m : max), "");
  // An index the budget left unread is the budget's doing (`timed_out`), however new: an engine that reads every
  // month at once (OpenSearch's shard timeout) can time out on the newest.
  const newestUnreadable = failed.reduce((max, f) => (f.kind === "unreadable" && f.partition > max ? f.partition : max), "");
  if (newestUnreadable > newestRead) return { partial: true, coverage: "recent_unavailable" };
  if (failed.some((f) => f.kind === "unreadable")) return { partial: true, coverage: "range_too_wide" };
  return { partial: true, coverage: "timed_out" };
}

/** The failures of two reads of one query (a threshold pass and the search), each monthly index once. */
export function mergeFailures(first: readonly PartitionFailure[], second: readonly PartitionFailure[]): PartitionFailure[] {
  return [...first, ...second.filter((f) => !first.some((g) => g.partition === f.partition))];
}

/**
 * 503 `upstream_unavailable` (spec section 7) when the window's own monthly
 * indexes could not be read: that is not an empty answer. The window's own
 * indexes are those collected no later than `to` (14-digit; the whole range
 * when absent). Later ones are asked too, since an article can be collected
 * long after it was published, but they hold the window's stragglers only,
 * never most of it: their answering alone is not an answer.
 */
export function assertSomethingRead(
  result: { partitionsRead: readonly string[]; partitionsFailed: readonly PartitionFailure[] },
  to?: string,
): void {
  const lastMonth = to?.slice(0, 6);
  const asked = [...result.partitionsRead, ...result.partitionsFailed.map((f) => f.partition)];
  const own = (month: string): boolean => lastMonth === undefined || month <= lastMonth;
  const inWindow = asked.some(own) ? own : () => true;
  // One query can ask a monthly index more than once (several lookups): each is named once.
  const unreadable = [
    ...new Set(result.partitionsFailed.filter((f) => f.kind === "unreadable" && inWindow(f.partition)).map((f) => f.partition)),
  ].sort();
  if (unreadable.length > 0 && !result.partitionsRead.some(inWindow)) {
    const which =
      unreadable.length === 1
        ? `monthly index of ${monthName(unreadable[0] ?? "")}`
        : unreadable.length <= 6
          ? `monthly indexes of ${unreadable.map(monthName).join(", ")}`
          : `${unreadable.length} monthly indexes, ${monthName(unreadable[0] ?? "")} to ${monthName(unreadable[unreadable.length - 1] ?? "")},`;
    throw new ApiError(
      "upstream_unavailable",
      `The ${which} holding the window could not be read. This is not evidence that no article matches: retry with backoff, or narrow 'from'/'to'.`,
    );
  }
}

/** `YYYYMM` as `YYYY-MM`. */
function monthName(month: string): string {
  return /^\d{6}$/.test(month) ? `${month.slice(0, 4)}-${month.slice(4)}` : month;
}
