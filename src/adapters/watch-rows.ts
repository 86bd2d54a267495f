import type { DeliveryStatus, EventKind, WatchStatus } from "../domain/watches/watch.js";
import type { DeliveryJob, DeliverySettlement, StoredEvent, WatchEvent, WatchRecord } from "../ports/watch-store.js";

// Row shapes shared by the watch-store adapters (SQLite and PostgreSQL).

export interface WatchRow {
  id: string;
  tenant_id: string;
  key_id: string;
  label: string;
  query_json: string;
  interval_minutes: number;
  minimum_outlets: number;
  notify_on: string;
  webhook_url: string | null;
  webhook_secret: string | null;
  status: string;
  created_at: string;
  last_run_at: string | null;
  next_run_at: string;
  watermark: string | null;
  consecutive_failures: number;
  consecutive_incomplete: number;
}

export const WATCH_COLUMNS =
  "id, tenant_id, key_id, label, query_json, interval_minutes, minimum_outlets, notify_on, webhook_url, webhook_secret, status, created_at, last_run_at, next_run_at, watermark, consecutive_failures, consecutive_incomplete";

export function watchValues(w: WatchRecord): unknown[] {
  return [
    w.id,
    w.tenant_id,
    w.key_id,
    w.label,
    JSON.stringify(w.query),
    w.interval_minutes,
    w.minimum_outlets,
    w.notify_on.join(","),
    w.webhook_url,
    w.webhook_secret,
    w.status,
    w.created_at,
    w.last_run_at,
    w.next_run_at,
    w.watermark,
    w.consecutive_failures,
    w.consecutive_incomplete,
  ];
}

export function toWatch(row: WatchRow): WatchRecord {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    key_id: row.key_id,
    label: row.label,
    query: JSON.parse(row.query_json) as WatchRecord["query"],
    interval_minutes: Number(row.interval_minutes),
    minimum_outlets: Number(row.minimum_outlets),
    notify_on: row.notify_on.split(",").filter((k) => k !== "") as EventKind[],
    webhook_url: row.webhook_url,
    webhook_secret: row.webhook_secret,
    status: row.status as WatchStatus,
    created_at: row.created_at,
    last_run_at: row.last_run_at,
    next_run_at: row.next_run_at,
    watermark: row.watermark,
    consecutive_failures: Number(row.consecutive_failures),
    consecutive_incomplete: Number(row.consecutive_incomplete),
  };
}

export interface EventRow {
  body_json: string;
  delivery_status: string | null;
}

export function toStoredEvent(row: EventRow): StoredEvent {
  return { ...(JSON.parse(row.body_json) as WatchEvent), delivery_status: row.delivery_status as DeliveryStatus | null };
}

export interface DeliveryRow {
  delivery_id: string;
  status: string;
  attempts: number;
  body_json: string;
  watch_id: string;
  tenant_id: string;
  key_id: string;
  label: string;
  webhook_url: string | null;
  webhook_secret: string | null;
}

/** Deliveries with their event and watch, for a claim. `d`, `e`, `w` are the three tables. */
export const DELIVERY_JOB_COLUMNS =
  "d.id AS delivery_id, d.status, d.attempts, e.body_json, w.id AS watch_id, w.tenant_id, w.key_id, w.label, w.webhook_url, w.webhook_secret";

export function toDeliveryJob(row: DeliveryRow): DeliveryJob {
  return {
    delivery_id: row.delivery_id,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    event: JSON.parse(row.body_json) as WatchEvent,
    watch: {
      id: row.watch_id,
      tenant_id: row.tenant_id,
      key_id: row.key_id,
      label: row.label,
      webhook_url: row.webhook_url,
      webhook_secret: row.webhook_secret,
    },
  };
}

/** The delivery row a settlement writes; attempts null keeps the count (an attempt that was not made). */
export function deliveryUpdate(settlement: DeliverySettlement): {
  status: string;
  attempts: number | null;
  nextAttemptMs: number;
  error: string | null;
} {
  const s = settlement;
  switch (s.outcome) {
    case "delivered":
      return { status: "delivered", attempts: s.attempts, nextAttemptMs: 0, error: null };
    case "failed":
      return { status: "failed", attempts: s.attempts, nextAttemptMs: 0, error: s.error };
    case "retry":
      return { status: "pending", attempts: s.attempts, nextAttemptMs: s.nextAttemptMs, error: s.error };
    case "held_credits":
      return { status: "held_credits", attempts: null, nextAttemptMs: s.nextAttemptMs, error: null };
    // Waits as it was: still pending, until the owning key is valid again.
    case "paused_key":
      return { status: "pending", attempts: null, nextAttemptMs: s.nextAttemptMs, error: null };
  }
}
