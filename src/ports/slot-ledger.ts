import type { SlotKind, SlotStatus } from "../domain/feed-slots.js";

// The feed's durable ledger: one row per slot and kind, so no slot is ever lost without saying so. control.db in
// the embedded shape, PostgreSQL in the scaled one. The follower is the only writer, and only `markIngested`
// writes `ingested`, after every record of the slot is in the index.

export interface SlotEntry {
  slot: string;
  kind: SlotKind;
  status: SlotStatus;
  /** As listed; null for a slot no list names. */
  bytes: number | null;
  md5: string | null;
  url: string | null;
  /** True once the downloaded file matched the listed size and md5. */
  md5_verified: boolean;
  /** Records written to the index (new or already there); null until ingested. */
  records: number | null;
  attempts: number;
  last_error: string | null;
  /** 14-digit UTC. */
  first_seen_at: string;
  updated_at: string;
  ingested_at: string | null;
  /** A pending slot is not tried again before this (backoff); null: at once. */
  next_attempt_at: string | null;
}

/** A slot as a list names it, or as a gap (no list names it: bytes, md5 and url null). */
export interface SlotListing {
  slot: string;
  kind: SlotKind;
  bytes: number | null;
  md5: string | null;
  url: string | null;
}

export interface SlotLedger {
  /**
   * Records slots not yet in the ledger as `pending` (`missing` when unlisted). A listing of a slot the ledger
   * has without one, or with other figures, replaces them and makes it `pending` again, unless it is ingested.
   */
  record(listings: readonly SlotListing[], at: string): Promise<void>;
  get(slot: string, kind: SlotKind): Promise<SlotEntry | undefined>;
  /** Pending slots whose backoff has passed, oldest first. */
  due(at: string, kinds: readonly SlotKind[], limit: number): Promise<SlotEntry[]>;
  /** The ledger from `from` to `to` (both included), oldest first; every slot when both are absent. */
  list(range?: { from?: string; to?: string; kinds?: readonly SlotKind[] }): Promise<SlotEntry[]>;
  /**
   * The newest slot of a kind the ledger holds, as read at most `maxAgeMs` ago (default 0: read now). An adapter may
   * answer a frequent asker from memory within that bound; the follower, which decides gaps by it, reads it now.
   */
  newest(kind: SlotKind, maxAgeMs?: number): Promise<string | undefined>;
  /** One more attempt starts: counted before any work, so a kill mid-slot still counts it. */
  startAttempt(slot: string, kind: SlotKind, at: string): Promise<void>;
  markIngested(slot: string, kind: SlotKind, records: number, at: string): Promise<void>;
  /** Stays `pending`, tried again from `retryAt`. */
  markRetry(slot: string, kind: SlotKind, error: string, retryAt: string, at: string): Promise<void>;
  markFailed(slot: string, kind: SlotKind, error: string, at: string): Promise<void>;
  markMissing(slot: string, kind: SlotKind, error: string, at: string): Promise<void>;
  /** `failed` and `missing` slots back to `pending` with their attempts reset (an operator's re-try). */
  reopen(slot: string, kind: SlotKind, at: string): Promise<void>;
}

/** Who follows the feed when several replicas could: one holder at a time, handed over when it dies. */
export interface FollowerLease {
  /** True while this process holds the lease (taking or renewing it). Asked before each round and each slot. */
  hold(): Promise<boolean>;
  release(): Promise<void>;
}
