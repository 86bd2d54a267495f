import type { DeliveryStatus, EventKind, WatchStatus } from "../domain/watches/watch.js";

// Watches, their per-story state, their events and the webhook outbox (spec
// 02). Kept in the control store: control.db in the embedded shape,
// PostgreSQL shared by every replica in the scaled one. Every method that
// changes more than one row does it in one transaction.

/** A saved `/stories` query: parameter names to query-string values. */
export type SavedQuery = Record<string, string | string[]>;

export interface WatchRecord {
  id: string;
  tenant_id: string;
  /** The key that created it: runs and deliveries are charged to it, and pause when it stops being valid. */
  key_id: string;
  label: string;
  query: SavedQuery;
  interval_minutes: number;
  minimum_outlets: number;
  notify_on: EventKind[];
  webhook_url: string | null;
  webhook_secret: string | null;
  status: WatchStatus;
  /** 14-digit UTC stamps. */
  created_at: string;
  last_run_at: string | null;
  next_run_at: string;
  watermark: string | null;
  consecutive_failures: number;
  consecutive_incomplete: number;
}

/** An event as recorded and served (spec 02, section 6). */
export interface WatchEvent {
  id: string;
  kind: EventKind;
  watch_id: string;
  recorded_at: string;
  occurred_at: string | null;
  story_id: string;
  title: string | null;
  url: string | null;
  count: number;
  outlets: number;
  /** Growth events only. */
  previous_outlets?: number;
  current_outlets?: number;
}

export interface StoredEvent extends WatchEvent {
  /** The webhook delivery's status; null when the watch has no webhook. */
  delivery_status: DeliveryStatus | null;
}

/** What a watch remembers of one story it reported. */
export interface StoryState {
  story_id: string;
  /** Outlets at its first report or last growth event. */
  outlets: number;
  last_seen_at: string;
}

/** One claimed run's outcome, written at once. */
export interface RunRecord {
  watchId: string;
  /** The claim this run holds: a replica whose lease was taken over writes nothing. */
  holder: string;
  /** Stories seen, with what to remember of them. */
  states: StoryState[];
  /** States not seen since this stamp are forgotten: a story returning after is new again. */
  forgetBefore: string;
  /** Events to record; ids already recorded are skipped, never recorded twice. */
  events: WatchEvent[];
  /** The watch after the run. */
  patch: Pick<WatchRecord, "status" | "last_run_at" | "next_run_at" | "watermark" | "consecutive_incomplete">;
  /** When a webhook is set: the new events' deliveries become due at this time. */
  deliverAtMs: number | null;
}

/** A delivery claimed for an attempt, with what the attempt needs. */
export interface DeliveryJob {
  delivery_id: string;
  status: DeliveryStatus;
  attempts: number;
  event: WatchEvent;
  watch: Pick<WatchRecord, "id" | "tenant_id" | "key_id" | "label" | "webhook_url" | "webhook_secret">;
}

export type DeliverySettlement =
  | { outcome: "delivered"; attempts: number }
  | { outcome: "retry"; attempts: number; nextAttemptMs: number; error: string }
  | { outcome: "held_credits"; nextAttemptMs: number }
  /** The owning key is not usable: the delivery waits unattempted (still pending) and the watch is `paused_key`. */
  | { outcome: "paused_key"; nextAttemptMs: number }
  | { outcome: "failed"; attempts: number; error: string };

export interface WatchStore {
  /** Inserts a watch unless the tenant already keeps `cap` watches (checked in the same transaction). */
  insertWatch(watch: WatchRecord, cap: number): Promise<{ inserted: true } | { inserted: false; count: number }>;
  countWatches(tenantId: string): Promise<number>;
  /** Oldest first. */
  listWatches(tenantId: string): Promise<WatchRecord[]>;
  findWatch(tenantId: string, id: string): Promise<WatchRecord | undefined>;
  /** Removes the watch with its story state, events and deliveries; false when the tenant has no such watch. */
  deleteWatch(tenantId: string, id: string): Promise<boolean>;
  /** Newest first; `after` returns events older than that id. */
  listEvents(watchId: string, after: string | undefined, limit: number): Promise<StoredEvent[]>;

  /**
   * Claims up to `limit` watches due at `now` (next_run_at <= now) that no
   * live lease holds, for `leaseMs`. Two replicas never claim the same watch
   * while a lease lives.
   */
  claimDueWatches(now: string, nowMs: number, holder: string, leaseMs: number, limit: number): Promise<WatchRecord[]>;
  /** What the watch remembers of these stories. */
  storyStates(watchId: string, storyIds: readonly string[]): Promise<Map<string, StoryState>>;
  /**
   * Writes a run: states, events (new ones only) and their deliveries, the
   * watch's new figures, and releases the lease. Returns the events newly
   * recorded; undefined when the watch is gone (deleted during the run) or
   * the lease was lost, in which case nothing is written.
   */
  completeRun(run: RunRecord): Promise<WatchEvent[] | undefined>;
  /** A run that did not run (paused): sets status and next run, releases the lease. */
  reschedule(watchId: string, holder: string, status: WatchStatus, nextRunAt: string): Promise<void>;

  /** Claims deliveries due at `nowMs` (pending or held) for `leaseMs`. */
  claimDueDeliveries(nowMs: number, holder: string, leaseMs: number, limit: number): Promise<DeliveryJob[]>;
  /**
   * Records an attempt's outcome. `delivered` clears the watch's
   * consecutive_failures (and `failing` becomes `active`); `failed` adds one,
   * and the eighth in a row makes an active watch `failing`.
   */
  settleDelivery(deliveryId: string, holder: string, settlement: DeliverySettlement): Promise<void>;
  /** Removes events recorded before `before` (retention) whose delivery is not still pending or held. */
  pruneEvents(before: string): Promise<number>;
}
