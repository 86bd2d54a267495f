import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type Database from "better-sqlite3";
import type { SlotKind } from "../../domain/feed-slots.js";
import type { FollowerLease, SlotEntry, SlotLedger, SlotListing } from "../../ports/slot-ledger.js";
import { SLOT_COLUMNS, toSlotEntry, upsertListingSql, type SlotRow } from "../slot-rows.js";
import { StatementCache } from "./statement-cache.js";

// The feed ledger in control.db, beside tenants and watches (same connection).

const SCHEMA = `
CREATE TABLE IF NOT EXISTS feed_slots (
  slot TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  bytes INTEGER,
  md5 TEXT,
  url TEXT,
  md5_verified INTEGER NOT NULL DEFAULT 0,
  records INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  first_seen_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  ingested_at TEXT,
  next_attempt_at TEXT,
  PRIMARY KEY (slot, kind)
);
CREATE INDEX IF NOT EXISTS feed_slots_status ON feed_slots(status, slot);
CREATE TABLE IF NOT EXISTS feed_lease (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until_ms INTEGER NOT NULL
);
`;

export class SqliteSlotLedger implements SlotLedger {
  private readonly statements: StatementCache;

  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
    this.statements = new StatementCache(db);
  }

  async record(listings: readonly SlotListing[], at: string): Promise<void> {
    const upsert = this.statements.get(upsertListingSql("feed_slots", Array(11).fill("?")));
    this.db.transaction(() => {
      for (const l of listings) {
        const listed = l.url !== null;
        upsert.run(
          l.slot,
          l.kind,
          listed ? "pending" : "missing",
          l.bytes,
          l.md5,
          l.url,
          0,
          0,
          listed ? null : "not in the master list",
          at,
          at,
        );
      }
    })();
  }

  async get(slot: string, kind: SlotKind): Promise<SlotEntry | undefined> {
    const row = this.statements.get(`SELECT ${SLOT_COLUMNS} FROM feed_slots WHERE slot = ? AND kind = ?`).get(slot, kind) as
      SlotRow | undefined;
    return row && toSlotEntry(row);
  }

  async due(at: string, kinds: readonly SlotKind[], limit: number): Promise<SlotEntry[]> {
    if (kinds.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT ${SLOT_COLUMNS} FROM feed_slots
         WHERE status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= ?) AND kind IN (${kinds.map(() => "?").join(", ")})
         ORDER BY slot, kind LIMIT ?`,
      )
      .all(at, ...kinds, limit) as SlotRow[];
    return rows.map(toSlotEntry);
  }

  async list(range: { from?: string; to?: string; kinds?: readonly SlotKind[] } = {}): Promise<SlotEntry[]> {
    const kinds = range.kinds ?? ["gkg", "translation"];
    if (kinds.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT ${SLOT_COLUMNS} FROM feed_slots WHERE slot >= ? AND slot <= ? AND kind IN (${kinds.map(() => "?").join(", ")})
         ORDER BY slot, kind`,
      )
      .all(range.from ?? "", range.to ?? "99999999999999", ...kinds) as SlotRow[];
    return rows.map(toSlotEntry);
  }

  async newest(kind: SlotKind): Promise<string | undefined> {
    const row = this.statements.get("SELECT max(slot) AS slot FROM feed_slots WHERE kind = ?").get(kind) as
      { slot: string | null } | undefined;
    return row?.slot ?? undefined;
  }

  async startAttempt(slot: string, kind: SlotKind, at: string): Promise<void> {
    this.statements
      .get("UPDATE feed_slots SET attempts = attempts + 1, updated_at = ? WHERE slot = ? AND kind = ?")
      .run(at, slot, kind);
  }

  async markIngested(slot: string, kind: SlotKind, records: number, at: string): Promise<void> {
    this.statements
      .get(
        `UPDATE feed_slots SET status = 'ingested', md5_verified = 1, records = ?, last_error = NULL, next_attempt_at = NULL,
         ingested_at = ?, updated_at = ? WHERE slot = ? AND kind = ?`,
      )
      .run(records, at, at, slot, kind);
  }

  async markRetry(slot: string, kind: SlotKind, error: string, retryAt: string, at: string): Promise<void> {
    this.statements
      .get(
        "UPDATE feed_slots SET status = 'pending', last_error = ?, next_attempt_at = ?, updated_at = ? WHERE slot = ? AND kind = ? AND status <> 'ingested'",
      )
      .run(error, retryAt, at, slot, kind);
  }

  async markFailed(slot: string, kind: SlotKind, error: string, at: string): Promise<void> {
    this.settle(slot, kind, "failed", error, at);
  }

  async markMissing(slot: string, kind: SlotKind, error: string, at: string): Promise<void> {
    this.settle(slot, kind, "missing", error, at);
  }

  async reopen(slot: string, kind: SlotKind, at: string): Promise<void> {
    this.statements
      .get(
        "UPDATE feed_slots SET status = 'pending', attempts = 0, next_attempt_at = NULL, updated_at = ? WHERE slot = ? AND kind = ? AND status IN ('failed', 'missing')",
      )
      .run(at, slot, kind);
  }

  private settle(slot: string, kind: SlotKind, status: "failed" | "missing", error: string, at: string): void {
    this.statements
      .get(
        "UPDATE feed_slots SET status = ?, last_error = ?, next_attempt_at = NULL, updated_at = ? WHERE slot = ? AND kind = ? AND status <> 'ingested'",
      )
      .run(status, error, at, slot, kind);
  }
}

/**
 * The follower's lease in control.db: a row naming the holder (host, process id) until a time it renews at each
 * slot. Two processes on one data dir follow one at a time; the lease passes on when it runs out, or at once when
 * its holder is a process of this host that is gone (a follower killed and restarted does not wait).
 */
export class SqliteFollowerLease implements FollowerLease {
  private readonly holder = `${hostname()}:${process.pid}:${randomUUID()}`;

  constructor(
    private readonly db: Database.Database,
    private readonly leaseMs: number,
    private readonly nowMs: () => number = Date.now,
  ) {
    db.exec(SCHEMA);
  }

  async hold(): Promise<boolean> {
    return this.db
      .transaction(() => {
        const now = this.nowMs();
        const current = this.db.prepare("SELECT holder, until_ms FROM feed_lease WHERE name = 'follower'").get() as
          { holder: string; until_ms: number } | undefined;
        if (current && current.holder !== this.holder && current.until_ms >= now && !goneHere(current.holder)) return false;
        this.db
          .prepare(
            `INSERT INTO feed_lease (name, holder, until_ms) VALUES ('follower', ?, ?)
           ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms`,
          )
          .run(this.holder, now + this.leaseMs);
        return true;
      })
      .immediate();
  }

  async release(): Promise<void> {
    this.db.prepare("DELETE FROM feed_lease WHERE name = 'follower' AND holder = ?").run(this.holder);
  }
}

/** A holder that was a process of this host which no longer runs. */
function goneHere(holder: string): boolean {
  const [host, pid] = holder.split(":");
  if (host !== hostname() || !/^\d+$/.test(pid ?? "")) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
