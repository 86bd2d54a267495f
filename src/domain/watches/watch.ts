// The watch vocabulary (spec 02, sections 2, 3 and 6): statuses, event kinds,
// delivery statuses and the figures the spec fixes. One table each.

export const WATCH_STATUSES = ["active", "paused_key", "paused_credits", "failing"] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];

export const EVENT_KINDS = ["new_story", "story_growth"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/**
 * Where a webhook delivery stands. The spec shows `failed` and `held_credits`;
 * `pending` (waiting for its first attempt or a retry) and `delivered` are ours
 * (docs/watches.md).
 */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "held_credits"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export const WATCH_LIMITS = {
  maxIntervalMinutes: 1440,
  /** Stories a run reads: the 100 newest in its window. */
  storiesPerRun: 100,
  eventRetentionMs: 7 * DAY_MS,
  storyForgottenAfterMs: 7 * DAY_MS,
  /** Retries after a failed delivery attempt: after 1, 5 and 25 minutes. */
  retryDelaysMs: [1 * MINUTE_MS, 5 * MINUTE_MS, 25 * MINUTE_MS] as readonly number[],
  /** Deliveries in a row ending `failed` before a watch is `failing`. */
  failuresBeforeFailing: 8,
  /** A held delivery (credits ran out) is tried again hourly. */
  heldRetryMs: HOUR_MS,
  /** The first run looks back one interval, or this if longer. */
  firstLookbackMs: HOUR_MS,
  /** A watch paused for credits is checked again after this, or its interval if longer. */
  creditsRecheckMs: HOUR_MS,
} as const;

/** Attempts one event's delivery may take: the first and its retries. */
export const DELIVERY_ATTEMPTS_MAX = 1 + WATCH_LIMITS.retryDelaysMs.length;

export function intervalMs(intervalMinutes: number): number {
  return intervalMinutes * MINUTE_MS;
}
