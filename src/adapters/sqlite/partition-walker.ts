import type { PartitionFailure } from "../../ports/index-coverage.js";
import type { ReadJob, ReadJobs, ReadRequest, Scanned } from "./partition-reads.js";
import { NOT_STARTED, type Lane, type ReadPool } from "./read-pool.js";
import type { MonthRead } from "./month-reads.js";

// The one walk over monthly indexes that every query makes: each index is read
// on the pool (as many at once as the lane has threads), newest first, and what
// happened to each is recorded here and nowhere else. An index not started
// within the query's budget is left unread; one whose scan stopped at the
// budget gave part of its matches; one that could not be read is unreadable.
// Each of those makes the answer partial (usecases/query-kernel/coverage.ts).

export interface Walk {
  /** Indexes read in full, newest first. */
  read: string[];
  /** Indexes left unread or read in part, newest first. */
  failed: PartitionFailure[];
}

export interface WalkOptions {
  lane: Lane;
  /** The query's time budget, counted from `startedMs` (ms since the epoch). */
  budgetMs?: number | undefined;
  startedMs: number;
}

/**
 * Reads `months` (newest first) with the request `ask` makes for each, made when the read is sent, so it can use
 * what earlier reads gave, and given the time (ms since the epoch) a scan must stop by; `merge` takes each result as
 * it arrives. The newest month is read whatever the budget.
 */
export async function walkPartitions<J extends ReadJob>(
  pool: ReadPool,
  months: readonly string[],
  options: WalkOptions,
  ask: (month: string, deadline: number | undefined) => Extract<ReadRequest, { job: J }>,
  merge: (month: string, result: ReadJobs[J]["result"]) => void,
): Promise<Walk> {
  const outcomes: MonthRead[] = [];
  if (months.length === 0) return { read: [], failed: [] };
  // The budget counts from when the query came or the lane's threads answer, whichever is later.
  const answering = await pool.ready(options.lane);
  const deadline = options.budgetMs === undefined ? undefined : Math.max(options.startedMs, answering) + options.budgetMs;
  let next = 0;
  const readNext = async (): Promise<void> => {
    while (next < months.length) {
      const first = next === 0;
      const month = months[next++] as string;
      try {
        const result = await pool.run<J>(options.lane, ask(month, deadline), first ? undefined : deadline);
        if (result === NOT_STARTED) {
          outcomes.push({ month, outcome: "not_started" });
          continue;
        }
        merge(month, result);
        const scanned = result as Scanned | undefined;
        const outcome =
          scanned?.fieldUnavailable === true ? "field_unavailable" : scanned?.timedOut === true ? "timed_out" : "read";
        outcomes.push({ month, outcome });
      } catch (error) {
        outcomes.push({ month, outcome: "unreadable", reason: unreadable(month, error).reason });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(pool.width(options.lane), months.length) }, readNext));
  return walkOf(outcomes, options.budgetMs);
}

/** The walk a read of several months on one thread made (month-reads.ts), recorded as walkPartitions records one. */
export function walkOf(months: readonly MonthRead[], budgetMs: number | undefined): Walk {
  const read: string[] = [];
  const failed: PartitionFailure[] = [];
  for (const m of months) {
    if (m.outcome === "read") read.push(m.month);
    else if (m.outcome === "not_started") failed.push(timedOut(m.month, `not read: the query's ${budgetMs} ms budget ran out`));
    else if (m.outcome === "timed_out") failed.push(timedOut(m.month, `read in part: the query's ${budgetMs} ms budget ran out`));
    else if (m.outcome === "field_unavailable")
      failed.push({ partition: m.month, kind: "field_unavailable", reason: "built without a derived field the query needs" });
    else failed.push({ partition: m.month, kind: "unreadable", reason: m.reason ?? "unreadable" });
  }
  read.sort().reverse();
  failed.sort((a, b) => (a.partition < b.partition ? 1 : a.partition > b.partition ? -1 : 0));
  return { read, failed };
}

export function unreadable(month: string, error: unknown): PartitionFailure {
  return { partition: month, kind: "unreadable", reason: error instanceof Error ? error.message : String(error) };
}

function timedOut(month: string, reason: string): PartitionFailure {
  return { partition: month, kind: "timed_out", reason };
}
