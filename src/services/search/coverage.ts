import type { Coverage } from "../../domain/coverage.js";
import type { PartitionFailure } from "../../ports/index-backend.js";

// How complete an answer is, from which monthly indexes could not be read.
// The newest index failing is `recent_unavailable` (retry shortly); an older
// one is `timed_out` (retry, or narrow the range past it).

export interface Completeness {
  partial: boolean;
  coverage: Coverage;
}

export function completeness(failed: readonly PartitionFailure[], read: readonly string[]): Completeness {
  if (failed.length === 0) return { partial: false, coverage: "complete" };
  const newestRead = read.reduce((max, m) => (m > max ? m : max), "");
  const newestFailed = failed.reduce((max, f) => (f.partition > max ? f.partition : max), "");
  return { partial: true, coverage: newestFailed > newestRead ? "recent_unavailable" : "timed_out" };
}
