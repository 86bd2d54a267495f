import { errors } from "@opensearch-project/opensearch";
import type { IndexCoverage, PartitionFailure } from "../../ports/index-coverage.js";
import type { IndexNames } from "./index-names.js";
import type { SearchResponse } from "./search-request.js";

// The coverage of one read (ports/index-coverage.ts) from what the node said:
//
// - a shard that failed names its index: that month answered in part, so it
//   is reported `unreadable` with the node's reason (the answer is partial);
// - a read that ran out of its time budget (`timed_out`) answered in part on
//   every index asked, and the node does not say which: each is `timed_out`;
// - a request refused whole (every shard failed, the node down or
//   unreachable) read nothing: every month asked is `unreadable`, which the
//   use case answers with 503 rather than an empty result.

export function coverageOf(
  names: IndexNames,
  months: readonly string[],
  response: Pick<SearchResponse<unknown>, "_shards" | "timed_out">,
  missing: readonly PartitionFailure[] = [],
): IndexCoverage {
  const failed = new Map<string, PartitionFailure>();
  for (const f of missing) failed.set(f.partition, f);
  for (const failure of response._shards.failures ?? []) {
    const month = failure.index === undefined ? undefined : names.monthOf(failure.index);
    if (month === undefined || failed.has(month)) continue;
    failed.set(month, { partition: month, kind: "unreadable", reason: shardReason(failure.reason) });
  }
  if (response.timed_out) {
    for (const month of months) {
      if (!failed.has(month)) {
        failed.set(month, { partition: month, kind: "timed_out", reason: "the read ran out of its time budget" });
      }
    }
  }
  return {
    partitionsRead: months.filter((m) => !failed.has(m)),
    partitionsFailed: [...failed.values()].sort((a, b) => (a.partition < b.partition ? -1 : 1)),
  };
}

/** Nothing read: every month asked failed with the request's error. */
export function unreadCoverage(
  months: readonly string[],
  error: unknown,
  missing: readonly PartitionFailure[] = [],
): IndexCoverage {
  const reason = requestFailure(error);
  return {
    partitionsRead: [],
    partitionsFailed: [...missing, ...months.map((month) => ({ partition: month, kind: "unreadable" as const, reason }))].sort(
      (a, b) => (a.partition < b.partition ? -1 : 1),
    ),
  };
}

/**
 * Whether a request's error means the index could not be read (the node down, unreachable, overloaded, every
 * shard failed), as opposed to a request this adapter got wrong, which is a bug to surface, not a partial answer.
 */
export function isUnavailable(error: unknown): boolean {
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoLivingConnectionsError
  ) {
    return true;
  }
  if (error instanceof errors.ResponseError) {
    const type = (error.body as { error?: { type?: string } } | undefined)?.error?.type;
    return (
      error.statusCode === 503 ||
      error.statusCode === 429 ||
      type === "search_phase_execution_exception" ||
      type === "index_closed_exception" ||
      // An index removed since the month catalog was read: read again, afresh (month-reader.ts).
      type === "index_not_found_exception" ||
      type === "no_shard_available_action_exception" ||
      type === "cluster_block_exception"
    );
  }
  return false;
}

function requestFailure(error: unknown): string {
  if (error instanceof errors.ResponseError) {
    const body = error.body as { error?: { type?: string; reason?: string } } | undefined;
    return `the node refused the read (${error.statusCode ?? "?"} ${body?.error?.type ?? ""}: ${body?.error?.reason ?? ""})`;
  }
  return `the node could not be reached (${error instanceof Error ? error.message : String(error)})`;
}

function shardReason(reason: { type?: string; reason?: string } | undefined): string {
  return `a shard of the index failed (${reason?.type ?? "error"}: ${reason?.reason ?? "no reason given"})`;
}
