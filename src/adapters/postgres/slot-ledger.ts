import pg from "pg";
import type { SlotKind } from "../../domain/feed-slots.js";
import type { FollowerLease, SlotEntry, SlotLedger, SlotListing } from "../../ports/slot-ledger.js";
import { SLOT_COLUMNS, toSlotEntry, upsertListingSql, type SlotRow } from "../slot-rows.js";
import { inTransaction, prepared } from "./transaction.js";

// The feed ledger on PostgreSQL, shared by every replica of the scaled shape (same pool and schema as the control
// store). Only the replica holding the follower lease writes it; any replica reads it.

export class PostgresSlotLedger implements SlotLedger {
  private readonly ready: Promise<void>;
  /** `newest` per kind as last read, and when (monotonic clock: the bound holds whatever the service's clock says). */
  private readonly newestRead = new Map<SlotKind, { at: number; slot: Promise<string | undefined> }>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly s: string,
    controlReady: Promise<void>,
  ) {
    this.ready = controlReady.then(() => this.migrate());
    this.ready.catch(() => undefined);
  }

  private async migrate(): Promise<void> {
    // One transaction, under a lock: replicas starting together would race on CREATE ... IF NOT EXISTS.
    await this.pool.query(`
      SELECT pg_advisory_xact_lock(hashtext('${this.s}.feed_slots'));
      CREATE TABLE IF NOT EXISTS ${this.s}.feed_slots (
        slot TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL, bytes BIGINT, md5 TEXT, url TEXT,
        md5_verified BOOLEAN NOT NULL DEFAULT FALSE, records INTEGER, attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT, first_seen_at TEXT NOT NULL, updated_at TEXT NOT NULL, ingested_at TEXT,
        next_attempt_at TEXT, PRIMARY KEY (slot, kind));
      CREATE INDEX IF NOT EXISTS feed_slots_status ON ${this.s}.feed_slots (status, slot);
    `);
  }

  async record(listings: readonly SlotListing[], at: string): Promise<void> {
    await this.ready;
    this.newestRead.clear();
    const sql = upsertListingSql(
      `${this.s}.feed_slots`,
      Array.from({ length: 11 }, (_, i) => `$${i + 1}`),
    );
    await inTransaction(this.pool, async (db) => {
      for (const l of listings) {
        const listed = l.url !== null;
        await db.query(sql, [
          l.slot,
          l.kind,
          listed ? "pending" : "missing",
          l.bytes,
          l.md5,
          l.url,
          false,
          0,
          listed ? null : "not in the master list",
          at,
          at,
        ]);
      }
    });
  }

  async get(slot: string, kind: SlotKind): Promise<SlotEntry | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<SlotRow>(
      `SELECT ${SLOT_COLUMNS} FROM ${this.s}.feed_slots WHERE slot = $1 AND kind = $2`,
      [slot, kind],
    );
    return rows[0] && toSlotEntry(rows[0]);
  }

  async due(at: string, kinds: readonly SlotKind[], limit: number): Promise<SlotEntry[]> {
    await this.ready;
    const { rows } = await this.pool.query<SlotRow>(
      `SELECT ${SLOT_COLUMNS} FROM ${this.s}.feed_slots
       WHERE status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= $1) AND kind = ANY($2)
       ORDER BY slot, kind LIMIT $3`,
      [at, kinds, limit],
    );
    return rows.map(toSlotEntry);
  }

  async list(range: { from?: string; to?: string; kinds?: readonly SlotKind[] } = {}): Promise<SlotEntry[]> {
    await this.ready;
    const { rows } = await this.pool.query<SlotRow>(
      `SELECT ${SLOT_COLUMNS} FROM ${this.s}.feed_slots WHERE slot >= $1 AND slot <= $2 AND kind = ANY($3)
       ORDER BY slot, kind`,
      [range.from ?? "", range.to ?? "99999999999999", range.kinds ?? ["gkg", "translation"]],
    );
    return rows.map(toSlotEntry);
  }

  /**
   * Asked by every answer that covers the feed (feed-coverage.ts) with a bound: read once per bound per replica, and
   * shared by the calls arriving while it is read. This replica's own records take effect at once (record() forgets
   * the last read); another replica's within the bound.
   */
  async newest(kind: SlotKind, maxAgeMs = 0): Promise<string | undefined> {
    await this.ready;
    const now = performance.now();
    const read = this.newestRead.get(kind);
    if (read !== undefined && now - read.at < maxAgeMs) return read.slot;
    // Calls arriving while it is read share the one statement.
    const slot = this.readNewest(kind);
    this.newestRead.set(kind, { at: now, slot });
    slot.catch(() => {
      if (this.newestRead.get(kind)?.slot === slot) this.newestRead.delete(kind);
    });
    return slot;
  }

  private async readNewest(kind: SlotKind): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ slot: string | null }>(
      prepared({ text: `SELECT max(slot) AS slot FROM ${this.s}.feed_slots WHERE kind = $1`, values: [kind] }),
    );
    return rows[0]?.slot ?? undefined;
  }

  async startAttempt(slot: string, kind: SlotKind, at: string): Promise<void> {
    await this.update("attempts = attempts + 1, updated_at = $3", [at], slot, kind);
  }

  async markIngested(slot: string, kind: SlotKind, records: number, at: string): Promise<void> {
    await this.update(
      `status = 'ingested', md5_verified = TRUE, records = $3, last_error = NULL, next_attempt_at = NULL,
       ingested_at = $4, updated_at = $4`,
      [records, at],
      slot,
      kind,
    );
  }

  async markRetry(slot: string, kind: SlotKind, error: string, retryAt: string, at: string): Promise<void> {
    await this.update(
      "status = 'pending', last_error = $3, next_attempt_at = $4, updated_at = $5",
      [error, retryAt, at],
      slot,
      kind,
      "status <> 'ingested'",
    );
  }

  async markFailed(slot: string, kind: SlotKind, error: string, at: string): Promise<void> {
    await this.settle(slot, kind, "failed", error, at);
  }

  async markMissing(slot: string, kind: SlotKind, error: string, at: string): Promise<void> {
    await this.settle(slot, kind, "missing", error, at);
  }

  async reopen(slot: string, kind: SlotKind, at: string): Promise<void> {
    await this.update(
      "status = 'pending', attempts = 0, next_attempt_at = NULL, updated_at = $3",
      [at],
      slot,
      kind,
      "status IN ('failed', 'missing')",
    );
  }

  private async settle(slot: string, kind: SlotKind, status: "failed" | "missing", error: string, at: string): Promise<void> {
    await this.update(
      "status = $3, last_error = $4, next_attempt_at = NULL, updated_at = $5",
      [status, error, at],
      slot,
      kind,
      "status <> 'ingested'",
    );
  }

  private async update(set: string, values: unknown[], slot: string, kind: SlotKind, when = "TRUE"): Promise<void> {
    await this.ready;
    await this.pool.query(`UPDATE ${this.s}.feed_slots SET ${set} WHERE slot = $1 AND kind = $2 AND ${when}`, [
      slot,
      kind,
      ...values,
    ]);
  }
}

/**
 * The follower's lease on PostgreSQL: a session advisory lock, held on a connection of its own for as long as the
 * process follows. PostgreSQL drops it the moment that connection ends, so a replica that dies (even by kill -9)
 * hands the feed over at the next round of another replica.
 */
export class PostgresFollowerLease implements FollowerLease {
  private client: pg.Client | undefined;
  private held = false;

  constructor(
    private readonly url: string,
    private readonly schema: string,
  ) {}

  async hold(): Promise<boolean> {
    if (this.held && this.client) return true;
    if (!this.client) {
      const client = new pg.Client({ connectionString: this.url });
      // A lost connection is a lost lock: this process stops following until it takes the lock again.
      client.on("error", () => this.drop(client));
      client.on("end", () => this.drop(client));
      await client.connect();
      this.client = client;
    }
    const { rows } = await this.client.query<{ held: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS held", [
      `${this.schema}.feed-follower`,
    ]);
    this.held = rows[0]?.held === true;
    return this.held;
  }

  async release(): Promise<void> {
    const client = this.client;
    this.drop(client);
    await client?.end().catch(() => undefined);
  }

  private drop(client: pg.Client | undefined): void {
    if (client !== undefined && client === this.client) {
      this.client = undefined;
      this.held = false;
    }
  }
}
