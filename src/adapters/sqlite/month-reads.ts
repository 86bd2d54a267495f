import type { ArticlePartition } from "./article-partition.js";

// What the reads spanning several monthly indexes in one call (a browse page,
// a story's description) share: the read thread's connections they go
// through, and how each month went, which the event loop records as a walk
// over the months records it (partition-walker.ts walkOf).

/** A read thread's connections to the monthly indexes: a connection that failed a read is opened again next time. */
export interface MonthConnections {
  open(month: string): ArticlePartition;
  forget(month: string): void;
}

/** How one monthly index of such a read went. */
export interface MonthRead {
  month: string;
  /** not_started: the query's budget ran out before it; timed_out: read in part; unreadable: see `reason`. */
  outcome: "read" | "timed_out" | "field_unavailable" | "not_started" | "unreadable";
  reason?: string;
}

/** Records a read that failed on `month` (a later read of a month already read included) and drops its connection. */
export function failMonth(months: MonthRead[], connections: MonthConnections, month: string, error: unknown): void {
  connections.forget(month);
  const reason = error instanceof Error ? error.message : String(error);
  const seen = months.find((m) => m.month === month);
  if (seen) {
    seen.outcome = "unreadable";
    seen.reason = reason;
  } else months.push({ month, outcome: "unreadable", reason });
}
