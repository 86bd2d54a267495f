import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
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
import { StatementCache } from "./statement-cache.js";

// Watches in control.db, beside tenants and keys (same connection). SQLite
// has one writer at a time, so an IMMEDIATE transaction is the lock that
// keeps claims and the watch cap exact.

const SCHEMA = `
CREATE TABLE IF NOT EXISTS watches (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  label TEXT NOT NULL,
  query_json TEXT NOT NULL,
  interval_minutes INTEGER NOT NULL,
  minimum_outlets INTEGER NOT NULL,
  notify_on TEXT NOT NULL,
  webhook_url TEXT,
  webhook_secret TEXT,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_run_at TEXT,
  next_run_at TEXT NOT NULL,
  watermark TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  consecutive_incomplete INTEGER NOT NULL DEFAULT 0,
  lease_holder TEXT,
  lease_until_ms INTEGER
);
CREATE INDEX IF NOT EXISTS watches_tenant ON watches(tenant_id, seq);
CREATE INDEX IF NOT EXISTS watches_due ON watches(next_run_at);
CREATE TABLE IF NOT EXISTS watch_stories (
  watch_id TEXT NOT NULL,
  story_id TEXT NOT NULL,
  outlets INTEGER NOT NULL,
  last_seen_at TEXT NOT NULL,
  PRIMARY KEY (watch_id, story_id)
);
CREATE TABLE IF NOT EXISTS watch_events (
  watch_id TEXT NOT NULL,
  id TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  body_json TEXT NOT NULL,
  PRIMARY KEY (watch_id, id)
);
CREATE INDEX IF NOT EXISTS watch_events_recorded ON watch_events(recorded_at);
CREATE TABLE IF NOT EXISTS watch_deliveries (
  id TEXT PRIMARY KEY,
  watch_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms INTEGER NOT NULL,
  last_error TEXT,
  lease_holder TEXT,
  lease_until_ms INTEGER,
  UNIQUE (watch_id, event_id)
);
CREATE INDEX IF NOT EXISTS watch_deliveries_due ON watch_deliveries(status, next_attempt_ms);
`;

export class SqliteWatchStore implements WatchStore {
  private readonly statements: StatementCache;

  constructor(private readonly db: Database.Database) {
    this.db.exec(SCHEMA);
    this.statements = new StatementCache(db);
  }

  async insertWatch(watch: WatchRecord, cap: number): Promise<{ inserted: true } | { inserted: false; count: number }> {
    return this.db
      .transaction((): { inserted: true } | { inserted: false; count: number } => {
        const count = this.count(watch.tenant_id);
        if (count >= cap) return { inserted: false, count };
        this.statements
          .get(
            `INSERT INTO watches (${WATCH_COLUMNS}) VALUES (${WATCH_COLUMNS.split(",")
              .map(() => "?")
              .join(", ")})`,
          )
          .run(...watchValues(watch));
        return { inserted: true };
      })
      .immediate();
  }

  async countWatches(tenantId: string): Promise<number> {
    return this.count(tenantId);
  }

  async listWatches(tenantId: string): Promise<WatchRecord[]> {
    const rows = this.statements.get(`SELECT ${WATCH_COLUMNS} FROM watches WHERE tenant_id = ? ORDER BY seq`).all(tenantId);
    return (rows as WatchRow[]).map(toWatch);
  }

  async findWatch(tenantId: string, id: string): Promise<WatchRecord | undefined> {
    const row = this.statements.get(`SELECT ${WATCH_COLUMNS} FROM watches WHERE tenant_id = ? AND id = ?`).get(tenantId, id) as
      WatchRow | undefined;
    return row && toWatch(row);
  }

  async deleteWatch(tenantId: string, id: string): Promise<boolean> {
    return this.db
      .transaction((): boolean => {
        const removed = this.statements.get("DELETE FROM watches WHERE tenant_id = ? AND id = ?").run(tenantId, id);
        if (removed.changes === 0) return false;
        for (const table of ["watch_stories", "watch_events", "watch_deliveries"]) {
          this.statements.get(`DELETE FROM ${table} WHERE watch_id = ?`).run(id);
        }
        return true;
      })
      .immediate();
  }

  async listEvents(watchId: string, after: string | undefined, limit: number): Promise<StoredEvent[]> {
    const rows = this.statements
      .get(
        `SELECT e.body_json, d.status AS delivery_status FROM watch_events e
         LEFT JOIN watch_deliveries d ON d.watch_id = e.watch_id AND d.event_id = e.id
         WHERE e.watch_id = ? AND (? IS NULL OR e.id < ?) ORDER BY e.id DESC LIMIT ?`,
      )
      .all(watchId, after ?? null, after ?? null, limit);
    return (rows as EventRow[]).map(toStoredEvent);
  }

  async claimDueWatches(now: string, nowMs: number, holder: string, leaseMs: number, limit: number): Promise<WatchRecord[]> {
    return this.db
      .transaction((): WatchRecord[] => {
        const rows = this.statements
          .get(
            `SELECT ${WATCH_COLUMNS} FROM watches WHERE next_run_at <= ? AND (lease_until_ms IS NULL OR lease_until_ms < ?)
             ORDER BY next_run_at, seq LIMIT ?`,
          )
          .all(now, nowMs, limit) as WatchRow[];
        const lease = this.statements.get("UPDATE watches SET lease_holder = ?, lease_until_ms = ? WHERE id = ?");
        for (const row of rows) lease.run(holder, nowMs + leaseMs, row.id);
        return rows.map(toWatch);
      })
      .immediate();
  }

  async storyStates(watchId: string, storyIds: readonly string[]): Promise<Map<string, StoryState>> {
    const found = new Map<string, StoryState>();
    const select = this.statements.get(
      "SELECT story_id, outlets, last_seen_at FROM watch_stories WHERE watch_id = ? AND story_id = ?",
    );
    for (const storyId of storyIds) {
      const row = select.get(watchId, storyId) as StoryState | undefined;
      if (row) found.set(storyId, row);
    }
    return found;
  }

  async completeRun(run: RunRecord): Promise<WatchEvent[] | undefined> {
    return this.db
      .transaction((): WatchEvent[] | undefined => {
        const held = this.statements
          .get("SELECT webhook_url FROM watches WHERE id = ? AND lease_holder = ?")
          .get(run.watchId, run.holder) as { webhook_url: string | null } | undefined;
        if (!held) return undefined;
        const upsert = this.statements.get(
          `INSERT INTO watch_stories (watch_id, story_id, outlets, last_seen_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (watch_id, story_id) DO UPDATE SET outlets = excluded.outlets, last_seen_at = excluded.last_seen_at`,
        );
        for (const s of run.states) upsert.run(run.watchId, s.story_id, s.outlets, s.last_seen_at);
        this.statements
          .get("DELETE FROM watch_stories WHERE watch_id = ? AND last_seen_at < ?")
          .run(run.watchId, run.forgetBefore);
        const recorded: WatchEvent[] = [];
        const insertEvent = this.statements.get(
          "INSERT INTO watch_events (watch_id, id, recorded_at, body_json) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        );
        const insertDelivery = this.statements.get(
          "INSERT INTO watch_deliveries (id, watch_id, event_id, status, attempts, next_attempt_ms) VALUES (?, ?, ?, 'pending', 0, ?) ON CONFLICT DO NOTHING",
        );
        for (const event of run.events) {
          if (insertEvent.run(run.watchId, event.id, event.recorded_at, JSON.stringify(event)).changes === 0) continue;
          recorded.push(event);
          if (held.webhook_url !== null && run.deliverAtMs !== null) {
            insertDelivery.run(`dl_${randomUUID()}`, run.watchId, event.id, run.deliverAtMs);
          }
        }
        const p = run.patch;
        this.statements
          .get(
            `UPDATE watches SET status = ?, last_run_at = ?, next_run_at = ?, watermark = ?, consecutive_incomplete = ?,
             lease_holder = NULL, lease_until_ms = NULL WHERE id = ?`,
          )
          .run(p.status, p.last_run_at, p.next_run_at, p.watermark, p.consecutive_incomplete, run.watchId);
        return recorded;
      })
      .immediate();
  }

  async reschedule(watchId: string, holder: string, status: WatchStatus, nextRunAt: string): Promise<void> {
    this.statements
      .get(
        "UPDATE watches SET status = ?, next_run_at = ?, lease_holder = NULL, lease_until_ms = NULL WHERE id = ? AND lease_holder = ?",
      )
      .run(status, nextRunAt, watchId, holder);
  }

  async claimDueDeliveries(nowMs: number, holder: string, leaseMs: number, limit: number): Promise<DeliveryJob[]> {
    return this.db
      .transaction((): DeliveryJob[] => {
        const rows = this.statements
          .get(
            `SELECT ${DELIVERY_JOB_COLUMNS} FROM watch_deliveries d
             JOIN watch_events e ON e.watch_id = d.watch_id AND e.id = d.event_id
             JOIN watches w ON w.id = d.watch_id
             WHERE d.status IN ('pending', 'held_credits') AND d.next_attempt_ms <= ?
               AND (d.lease_until_ms IS NULL OR d.lease_until_ms < ?)
             ORDER BY d.next_attempt_ms, d.event_id LIMIT ?`,
          )
          .all(nowMs, nowMs, limit) as DeliveryRow[];
        const lease = this.statements.get("UPDATE watch_deliveries SET lease_holder = ?, lease_until_ms = ? WHERE id = ?");
        for (const row of rows) lease.run(holder, nowMs + leaseMs, row.delivery_id);
        return rows.map(toDeliveryJob);
      })
      .immediate();
  }

  async settleDelivery(deliveryId: string, holder: string, settlement: DeliverySettlement): Promise<void> {
    this.db
      .transaction(() => {
        const row = this.statements
          .get("SELECT watch_id FROM watch_deliveries WHERE id = ? AND lease_holder = ?")
          .get(deliveryId, holder) as { watch_id: string } | undefined;
        if (!row) return;
        const s = settlement;
        const { status, attempts, nextAttemptMs: next, error } = deliveryUpdate(s);
        this.statements
          .get(
            `UPDATE watch_deliveries SET status = ?, attempts = coalesce(?, attempts), next_attempt_ms = ?, last_error = coalesce(?, last_error),
             lease_holder = NULL, lease_until_ms = NULL WHERE id = ?`,
          )
          .run(status, attempts, next, error, deliveryId);
        if (s.outcome === "delivered") {
          this.statements
            .get(
              "UPDATE watches SET consecutive_failures = 0, status = CASE WHEN status = 'failing' THEN 'active' ELSE status END WHERE id = ?",
            )
            .run(row.watch_id);
        } else if (s.outcome === "failed") {
          this.statements
            .get(
              `UPDATE watches SET consecutive_failures = consecutive_failures + 1,
               status = CASE WHEN status = 'active' AND consecutive_failures + 1 >= ? THEN 'failing' ELSE status END WHERE id = ?`,
            )
            .run(WATCH_LIMITS.failuresBeforeFailing, row.watch_id);
        } else if (s.outcome === "paused_key") {
          this.statements.get("UPDATE watches SET status = 'paused_key' WHERE id = ?").run(row.watch_id);
        }
      })
      .immediate();
  }

  async pruneEvents(before: string): Promise<number> {
    return this.db
      .transaction((): number => {
        const kept =
          "SELECT 1 FROM watch_deliveries d WHERE d.watch_id = watch_events.watch_id AND d.event_id = watch_events.id AND d.status IN ('pending', 'held_credits')";
        this.statements
          .get(
            `DELETE FROM watch_deliveries WHERE status IN ('delivered', 'failed') AND EXISTS (
               SELECT 1 FROM watch_events e WHERE e.watch_id = watch_deliveries.watch_id AND e.id = watch_deliveries.event_id AND e.recorded_at < ?)`,
          )
          .run(before);
        return this.statements.get(`DELETE FROM watch_events WHERE recorded_at < ? AND NOT EXISTS (${kept})`).run(before).changes;
      })
      .immediate();
  }

  private count(tenantId: string): number {
    return (this.statements.get("SELECT count(*) AS n FROM watches WHERE tenant_id = ?").get(tenantId) as { n: number }).n;
  }
}
