import { randomUUID } from "node:crypto";
import type pg from "pg";
import { WATCH_LIMITS, type WatchStatus } from "../../domain/watches/watch.js";
import type {
  DeliveryJob,
  DeliverySettlement,
  RunRecord,
  StoredEvent,
  StoryState,
  WatchEvent,
  WatchRecord,
  WatchStore,
} from "../../ports/watch-store.js";
import {
  DELIVERY_JOB_COLUMNS,
  deliveryUpdate,
  toDeliveryJob,
  toStoredEvent,
  toWatch,
  WATCH_COLUMNS,
  watchValues,
  type DeliveryRow,
  type EventRow,
  type WatchRow,
} from "../watch-rows.js";
import { inTransaction, type Queryable } from "./transaction.js";

// Watches on PostgreSQL, beside tenants and keys (same pool and schema),
// shared by every API replica. Due watches and deliveries are claimed with
// FOR UPDATE SKIP LOCKED and a lease, so each is run by exactly one replica;
// a replica that dies mid-run loses its lease and another takes over.

export class PostgresWatchStore implements WatchStore {
  private readonly ready: Promise<void>;

  /** `after`: the control store's migration, which creates the schema. */
  constructor(
    private readonly pool: pg.Pool,
    private readonly s: string,
    after: Promise<void>,
  ) {
    this.ready = after.then(() => this.migrate());
    this.ready.catch(() => undefined);
  }

  private async migrate(): Promise<void> {
    const s = this.s;
    await this.transaction(async (db) => {
      // Replicas starting together would race on CREATE ... IF NOT EXISTS; one migrates at a time.
      await db.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`${s}.watches`]);
      await db.query(`
        CREATE TABLE IF NOT EXISTS ${s}.watches (
          seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant_id TEXT NOT NULL, key_id TEXT NOT NULL,
          label TEXT NOT NULL, query_json TEXT NOT NULL, interval_minutes INTEGER NOT NULL, minimum_outlets INTEGER NOT NULL,
          notify_on TEXT NOT NULL, webhook_url TEXT, webhook_secret TEXT, status TEXT NOT NULL, created_at TEXT NOT NULL,
          last_run_at TEXT, next_run_at TEXT NOT NULL, watermark TEXT,
          consecutive_failures INTEGER NOT NULL DEFAULT 0, consecutive_incomplete INTEGER NOT NULL DEFAULT 0,
          lease_holder TEXT, lease_until_ms BIGINT);
        CREATE INDEX IF NOT EXISTS watches_tenant ON ${s}.watches (tenant_id, seq);
        CREATE INDEX IF NOT EXISTS watches_due ON ${s}.watches (next_run_at);
        CREATE TABLE IF NOT EXISTS ${s}.watch_stories (
          watch_id TEXT NOT NULL, story_id TEXT NOT NULL, outlets INTEGER NOT NULL, last_seen_at TEXT NOT NULL,
          PRIMARY KEY (watch_id, story_id));
        CREATE TABLE IF NOT EXISTS ${s}.watch_events (
          watch_id TEXT NOT NULL, id TEXT NOT NULL, recorded_at TEXT NOT NULL, body_json TEXT NOT NULL,
          PRIMARY KEY (watch_id, id));
        CREATE INDEX IF NOT EXISTS watch_events_recorded ON ${s}.watch_events (recorded_at);
        CREATE TABLE IF NOT EXISTS ${s}.watch_deliveries (
          id TEXT PRIMARY KEY, watch_id TEXT NOT NULL, event_id TEXT NOT NULL, status TEXT NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0, next_attempt_ms BIGINT NOT NULL, last_error TEXT,
          lease_holder TEXT, lease_until_ms BIGINT, UNIQUE (watch_id, event_id));
        CREATE INDEX IF NOT EXISTS watch_deliveries_due ON ${s}.watch_deliveries (status, next_attempt_ms);
      `);
    });
  }

  async insertWatch(watch: WatchRecord, cap: number): Promise<{ inserted: true } | { inserted: false; count: number }> {
    await this.ready;
    return this.transaction(async (db) => {
      // One create at a time per tenant, across replicas: the cap stays exact.
      await db.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`${this.s}.watches:${watch.tenant_id}`]);
      const count = await this.count(db, watch.tenant_id);
      if (count >= cap) return { inserted: false, count } as const;
      const placeholders = watchValues(watch).map((_, i) => `$${i + 1}`);
      await db.query(`INSERT INTO ${this.s}.watches (${WATCH_COLUMNS}) VALUES (${placeholders.join(", ")})`, watchValues(watch));
      return { inserted: true } as const;
    });
  }

  async countWatches(tenantId: string): Promise<number> {
    await this.ready;
    return this.count(this.pool, tenantId);
  }

  async listWatches(tenantId: string): Promise<WatchRecord[]> {
    await this.ready;
    const { rows } = await this.pool.query<WatchRow>(
      `SELECT ${WATCH_COLUMNS} FROM ${this.s}.watches WHERE tenant_id = $1 ORDER BY seq`,
      [tenantId],
    );
    return rows.map(toWatch);
  }

  async findWatch(tenantId: string, id: string): Promise<WatchRecord | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<WatchRow>(
      `SELECT ${WATCH_COLUMNS} FROM ${this.s}.watches WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0] && toWatch(rows[0]);
  }

  async deleteWatch(tenantId: string, id: string): Promise<boolean> {
    await this.ready;
    return this.transaction(async (db) => {
      // Waits for a run holding the row (completeRun locks it), then removes everything.
      const removed = await db.query(`DELETE FROM ${this.s}.watches WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
      if ((removed.rowCount ?? 0) === 0) return false;
      for (const table of ["watch_stories", "watch_events", "watch_deliveries"]) {
        await db.query(`DELETE FROM ${this.s}.${table} WHERE watch_id = $1`, [id]);
      }
      return true;
    });
  }

  async listEvents(watchId: string, after: string | undefined, limit: number): Promise<StoredEvent[]> {
    await this.ready;
    const { rows } = await this.pool.query<EventRow>(
      `SELECT e.body_json, d.status AS delivery_status FROM ${this.s}.watch_events e
       LEFT JOIN ${this.s}.watch_deliveries d ON d.watch_id = e.watch_id AND d.event_id = e.id
       WHERE e.watch_id = $1 AND ($2::text IS NULL OR e.id < $2) ORDER BY e.id DESC LIMIT $3`,
      [watchId, after ?? null, limit],
    );
    return rows.map(toStoredEvent);
  }

  async claimDueWatches(now: string, nowMs: number, holder: string, leaseMs: number, limit: number): Promise<WatchRecord[]> {
    await this.ready;
    const { rows } = await this.pool.query<WatchRow>(
      `UPDATE ${this.s}.watches SET lease_holder = $1, lease_until_ms = $2
       WHERE id IN (
         SELECT id FROM ${this.s}.watches WHERE next_run_at <= $3 AND (lease_until_ms IS NULL OR lease_until_ms < $4)
         ORDER BY next_run_at, seq LIMIT $5 FOR UPDATE SKIP LOCKED)
       RETURNING ${WATCH_COLUMNS}`,
      [holder, nowMs + leaseMs, now, nowMs, limit],
    );
    return rows.map(toWatch).sort((a, b) => (a.next_run_at < b.next_run_at ? -1 : a.next_run_at > b.next_run_at ? 1 : 0));
  }

  async storyStates(watchId: string, storyIds: readonly string[]): Promise<Map<string, StoryState>> {
    await this.ready;
    const { rows } = await this.pool.query<StoryState>(
      `SELECT story_id, outlets, last_seen_at FROM ${this.s}.watch_stories WHERE watch_id = $1 AND story_id = ANY($2::text[])`,
      [watchId, [...storyIds]],
    );
    return new Map(rows.map((row) => [row.story_id, { ...row, outlets: Number(row.outlets) }]));
  }

  async completeRun(run: RunRecord): Promise<WatchEvent[] | undefined> {
    await this.ready;
    const s = this.s;
    return this.transaction(async (db) => {
      const { rows } = await db.query<{ webhook_url: string | null }>(
        `SELECT webhook_url FROM ${s}.watches WHERE id = $1 AND lease_holder = $2 FOR UPDATE`,
        [run.watchId, run.holder],
      );
      const held = rows[0];
      if (!held) return undefined;
      for (const st of run.states) {
        await db.query(
          `INSERT INTO ${s}.watch_stories (watch_id, story_id, outlets, last_seen_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (watch_id, story_id) DO UPDATE SET outlets = EXCLUDED.outlets, last_seen_at = EXCLUDED.last_seen_at`,
          [run.watchId, st.story_id, st.outlets, st.last_seen_at],
        );
      }
      await db.query(`DELETE FROM ${s}.watch_stories WHERE watch_id = $1 AND last_seen_at < $2`, [run.watchId, run.forgetBefore]);
      const recorded: WatchEvent[] = [];
      for (const event of run.events) {
        const inserted = await db.query(
          `INSERT INTO ${s}.watch_events (watch_id, id, recorded_at, body_json) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
          [run.watchId, event.id, event.recorded_at, JSON.stringify(event)],
        );
        if ((inserted.rowCount ?? 0) === 0) continue;
        recorded.push(event);
        if (held.webhook_url !== null && run.deliverAtMs !== null) {
          await db.query(
            `INSERT INTO ${s}.watch_deliveries (id, watch_id, event_id, status, attempts, next_attempt_ms)
             VALUES ($1, $2, $3, 'pending', 0, $4) ON CONFLICT DO NOTHING`,
            [`dl_${randomUUID()}`, run.watchId, event.id, run.deliverAtMs],
          );
        }
      }
      const p = run.patch;
      await db.query(
        `UPDATE ${s}.watches SET status = $1, last_run_at = $2, next_run_at = $3, watermark = $4, consecutive_incomplete = $5,
         lease_holder = NULL, lease_until_ms = NULL WHERE id = $6`,
        [p.status, p.last_run_at, p.next_run_at, p.watermark, p.consecutive_incomplete, run.watchId],
      );
      return recorded;
    });
  }

  async reschedule(watchId: string, holder: string, status: WatchStatus, nextRunAt: string): Promise<void> {
    await this.ready;
    await this.pool.query(
      `UPDATE ${this.s}.watches SET status = $1, next_run_at = $2, lease_holder = NULL, lease_until_ms = NULL
       WHERE id = $3 AND lease_holder = $4`,
      [status, nextRunAt, watchId, holder],
    );
  }

  async claimDueDeliveries(nowMs: number, holder: string, leaseMs: number, limit: number): Promise<DeliveryJob[]> {
    await this.ready;
    const s = this.s;
    return this.transaction(async (db) => {
      const { rows: claimed } = await db.query<{ id: string }>(
        `UPDATE ${s}.watch_deliveries SET lease_holder = $1, lease_until_ms = $2
         WHERE id IN (
           SELECT id FROM ${s}.watch_deliveries WHERE status IN ('pending', 'held_credits') AND next_attempt_ms <= $3
             AND (lease_until_ms IS NULL OR lease_until_ms < $3)
           ORDER BY next_attempt_ms, event_id LIMIT $4 FOR UPDATE SKIP LOCKED)
         RETURNING id`,
        [holder, nowMs + leaseMs, nowMs, limit],
      );
      if (claimed.length === 0) return [];
      const { rows } = await db.query<DeliveryRow>(
        `SELECT ${DELIVERY_JOB_COLUMNS} FROM ${s}.watch_deliveries d
         JOIN ${s}.watch_events e ON e.watch_id = d.watch_id AND e.id = d.event_id
         JOIN ${s}.watches w ON w.id = d.watch_id
         WHERE d.id = ANY($1::text[]) ORDER BY d.next_attempt_ms, d.event_id`,
        [claimed.map((c) => c.id)],
      );
      return rows.map(toDeliveryJob);
    });
  }

  async settleDelivery(deliveryId: string, holder: string, settlement: DeliverySettlement): Promise<void> {
    await this.ready;
    const s = this.s;
    await this.transaction(async (db) => {
      const { rows } = await db.query<{ watch_id: string }>(
        `SELECT watch_id FROM ${s}.watch_deliveries WHERE id = $1 AND lease_holder = $2 FOR UPDATE`,
        [deliveryId, holder],
      );
      const row = rows[0];
      if (!row) return;
      const st = settlement;
      const update = deliveryUpdate(st);
      await db.query(
        `UPDATE ${s}.watch_deliveries SET status = $1, attempts = coalesce($2, attempts), next_attempt_ms = $3,
         last_error = coalesce($4, last_error), lease_holder = NULL, lease_until_ms = NULL WHERE id = $5`,
        [update.status, update.attempts, update.nextAttemptMs, update.error, deliveryId],
      );
      if (st.outcome === "delivered") {
        await db.query(
          `UPDATE ${s}.watches SET consecutive_failures = 0,
           status = CASE WHEN status = 'failing' THEN 'active' ELSE status END WHERE id = $1`,
          [row.watch_id],
        );
      } else if (st.outcome === "failed") {
        await db.query(
          `UPDATE ${s}.watches SET consecutive_failures = consecutive_failures + 1,
           status = CASE WHEN status = 'active' AND consecutive_failures + 1 >= $1 THEN 'failing' ELSE status END WHERE id = $2`,
          [WATCH_LIMITS.failuresBeforeFailing, row.watch_id],
        );
      } else if (st.outcome === "paused_key") {
        await db.query(`UPDATE ${s}.watches SET status = 'paused_key' WHERE id = $1`, [row.watch_id]);
      }
    });
  }

  async pruneEvents(before: string): Promise<number> {
    await this.ready;
    const s = this.s;
    return this.transaction(async (db) => {
      await db.query(
        `DELETE FROM ${s}.watch_deliveries d USING ${s}.watch_events e
         WHERE d.status IN ('delivered', 'failed') AND e.watch_id = d.watch_id AND e.id = d.event_id AND e.recorded_at < $1`,
        [before],
      );
      const removed = await db.query(
        `DELETE FROM ${s}.watch_events e WHERE e.recorded_at < $1 AND NOT EXISTS (
           SELECT 1 FROM ${s}.watch_deliveries d WHERE d.watch_id = e.watch_id AND d.event_id = e.id
             AND d.status IN ('pending', 'held_credits'))`,
        [before],
      );
      return removed.rowCount ?? 0;
    });
  }

  private async count(db: Queryable, tenantId: string): Promise<number> {
    const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.s}.watches WHERE tenant_id = $1`, [
      tenantId,
    ]);
    return Number(rows[0]?.n ?? 0);
  }

  private transaction<T>(work: (db: Queryable) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }
}
