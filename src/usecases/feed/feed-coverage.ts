import { SLOT_MS } from "../../domain/feed-slots.js";
import type { Coverage } from "../../domain/coverage.js";
import type { SlotLedger } from "../../ports/slot-ledger.js";
import { parseStamp, parseTimeBound, toStamp } from "../../shared/timestamps.js";

// Holes in the feed, told on the answers they touch. On a server that follows GDELT's feed, an answer that read
// every monthly index is still not `complete` when its window holds a slot the index lacks:
// - a `missing` or `failed` slot: `partial: true`, `coverage: range_too_wide`, as for an older monthly index
//   that could not be read: retrying unchanged does not help until the slot is recovered; narrowing past it does;
// - the newest slot not in yet (listed and pending, or overdue): `recent_unavailable` ("retry shortly").
// A server whose ledger is empty (files ingested by hand) answers as before. See /docs/completeness.md.

/** GDELT publishes a slot's files a few minutes after it; past this, the next slot is overdue. */
export const OVERDUE_MS = SLOT_MS + 10 * 60_000;
const LIVE_MS = 86_400_000;

interface Covered {
  partial?: unknown;
  coverage?: unknown;
  history_days?: unknown;
}

/**
 * The next slot is late, on a server that follows the feed. A ledger whose newest slot is more than a day old is
 * a backfill's (`newsindex follow --since --until`), not a live follower's: nothing is on its way.
 */
export function overdue(ageMs: number): boolean {
  return ageMs > OVERDUE_MS && ageMs < LIVE_MS;
}

/**
 * How old the newest slot an answer reads may be. It changes when a slot is first recorded (every 15 minutes) and
 * every answer asks it, so a replica reads it once a second: an answer may tell a new slot a second late (a pending
 * slot is told by the ledger's listing, read afresh, once the newest slot is known).
 */
export const NEWEST_MAX_AGE_MS = 1_000;

/** The answer, with `partial` and `coverage` set when its window holds a slot the index lacks. */
export async function withFeedGaps<B extends object>(
  body: B,
  params: Record<string, unknown>,
  ledger: SlotLedger | undefined,
  nowMs: number,
): Promise<B> {
  const covered = body as Covered;
  if (ledger === undefined || covered.coverage !== "complete") return body;
  const newest = await ledger.newest("gkg", NEWEST_MAX_AGE_MS);
  if (newest === undefined) return body;
  const now = toStamp(nowMs);
  let from = typeof params.from === "string" ? (parseTimeBound(params.from, "start") ?? "") : "";
  if (typeof covered.history_days === "number") {
    const boundary = toStamp(nowMs - covered.history_days * 86_400_000);
    if (from < boundary) from = boundary;
  }
  const to = typeof params.to === "string" ? (parseTimeBound(params.to, "end") ?? now) : now;
  // A slot holds what was collected in the 15 minutes up to its stamp.
  const rows = await ledger.list({ from, to: toStamp((parseStamp(to) ?? nowMs) + SLOT_MS) });
  let coverage: Coverage | undefined;
  // The same precedence as the monthly indexes' failures (usecases/query-kernel/coverage.ts): the newest first.
  if (rows.some((r) => r.status === "pending") || (to > newest && overdue(nowMs - (parseStamp(newest) ?? nowMs))))
    coverage = "recent_unavailable";
  else if (rows.some((r) => r.status === "missing" || r.status === "failed")) coverage = "range_too_wide";
  return coverage === undefined ? body : { ...body, partial: true, coverage };
}
