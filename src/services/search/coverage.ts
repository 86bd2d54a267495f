import type { Coverage } from "../../domain/coverage.js";
import type { PartitionFailure } from "../../ports/index-backend.js";

// How complete an answer is, from which monthly indexes could not be read.
// The newest index failing is `recent_unavailable` (retry shortly); an older
// one is `timed_out` (retry, or narrow the range past it). An index built
// without a derived field the query needs is `field_unavailable`, reported
// only when nothing else failed (the other failures are worth a retry).

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
  const newestFailed = failed.reduce((max, f) => (f.partition > max ? f.partition : max), "");
  return { partial: true, coverage: newestFailed > newestRead ? "recent_unavailable" : "timed_out" };
}

/** The failures of two reads of one query (a threshold pass and the search), each monthly index once. */
export function mergeFailures(first: readonly PartitionFailure[], second: readonly PartitionFailure[]): PartitionFailure[] {
  return [...first, ...second.filter((f) => !first.some((g) => g.partition === f.partition))];
}
