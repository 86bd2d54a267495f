import type { SlotKind, SlotStatus } from "../domain/feed-slots.js";
import type { SlotEntry } from "../ports/slot-ledger.js";

// The feed ledger's row, shared by the SQLite and PostgreSQL adapters: one table, one shape.

export const SLOT_COLUMNS =
  "slot, kind, status, bytes, md5, url, md5_verified, records, attempts, last_error, first_seen_at, updated_at, ingested_at, next_attempt_at";

/** A SlotEntry as the drivers return it: enums as text, and two columns each driver types its own way. */
export type SlotRow = Omit<SlotEntry, "kind" | "status" | "bytes" | "md5_verified"> & {
  kind: string;
  status: string;
  /** PostgreSQL BIGINT arrives as a string. */
  bytes: number | string | null;
  /** SQLite stores 0/1; PostgreSQL a boolean. */
  md5_verified: number | boolean;
};

export function toSlotEntry(row: SlotRow): SlotEntry {
  return {
    slot: row.slot,
    kind: row.kind as SlotKind,
    status: row.status as SlotStatus,
    bytes: row.bytes === null ? null : Number(row.bytes),
    md5: row.md5,
    url: row.url,
    md5_verified: row.md5_verified === true || row.md5_verified === 1,
    records: row.records,
    attempts: row.attempts,
    last_error: row.last_error,
    first_seen_at: row.first_seen_at,
    updated_at: row.updated_at,
    ingested_at: row.ingested_at,
    next_attempt_at: row.next_attempt_at,
  };
}

/** Whether a new listing replaces the row's figures: the row had none, or they differ (a corrected file). */
export const LISTING_CHANGED = "(t.md5 IS NULL OR t.md5 <> excluded.md5 OR t.bytes <> excluded.bytes)";

/**
 * The upsert of a listing, in SQL both engines read: a new slot is inserted; a known one not ingested takes the
 * listing, and becomes `pending` again with its attempts reset when the figures changed.
 */
export function upsertListingSql(table: string, params: readonly string[]): string {
  return `INSERT INTO ${table} AS t (slot, kind, status, bytes, md5, url, md5_verified, attempts, last_error, first_seen_at, updated_at)
    VALUES (${params.join(", ")})
    ON CONFLICT (slot, kind) DO UPDATE SET
      status = CASE WHEN ${LISTING_CHANGED} THEN 'pending' ELSE t.status END,
      attempts = CASE WHEN ${LISTING_CHANGED} THEN 0 ELSE t.attempts END,
      next_attempt_at = CASE WHEN ${LISTING_CHANGED} THEN NULL ELSE t.next_attempt_at END,
      updated_at = CASE WHEN ${LISTING_CHANGED} THEN excluded.updated_at ELSE t.updated_at END,
      bytes = excluded.bytes, md5 = excluded.md5, url = excluded.url
    WHERE t.status <> 'ingested' AND excluded.url IS NOT NULL`;
}
