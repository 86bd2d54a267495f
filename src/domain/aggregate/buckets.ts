import { parseStamp, toStamp } from "../../shared/timestamps.js";

// The time buckets of GET /aggregate, in UTC: `hour`, `day`, `week` (starting
// Monday), `month`, or `all` (one bucket for the window). A bucket is named by
// its natural start and end (14-digit, inclusive), whatever the window cuts
// off it: the first and last buckets count only what the window holds.

export const INTERVALS = ["hour", "day", "week", "month", "all"] as const;
export type Interval = (typeof INTERVALS)[number];

/** At most this many buckets per series (spec section 8). */
export const MAX_BUCKETS = 366;

export interface Bucket {
  start: string;
  end: string;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The natural start (epoch ms) of the bucket holding `ms`. */
export function bucketStartMs(ms: number, interval: Exclude<Interval, "all">): number {
  const d = new Date(ms);
  switch (interval) {
    case "hour":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
    case "day":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case "week": {
      // getUTCDay: Sunday 0 ... Saturday 6; days since Monday is (day + 6) % 7.
      const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      return day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
    }
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

function nextStartMs(startMs: number, interval: Exclude<Interval, "all">): number {
  const d = new Date(startMs);
  switch (interval) {
    case "hour":
      return startMs + HOUR_MS;
    case "day":
      return startMs + DAY_MS;
    case "week":
      return startMs + 7 * DAY_MS;
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
}

/** How many buckets the window [from, to] spans (14-digit, inclusive), without listing them. */
export function bucketCount(from: string, to: string, interval: Interval): number {
  if (interval === "all") return 1;
  const first = bucketStartMs(stampMs(from), interval);
  const last = bucketStartMs(stampMs(to), interval);
  if (interval === "month") {
    const a = new Date(first);
    const b = new Date(last);
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() + 1;
  }
  const width = interval === "hour" ? HOUR_MS : interval === "day" ? DAY_MS : 7 * DAY_MS;
  return Math.round((last - first) / width) + 1;
}

/** Every bucket of the window, oldest first; for `all`, the window itself. Call after bucketCount is checked. */
export function bucketsOf(from: string, to: string, interval: Interval): Bucket[] {
  if (interval === "all") return [{ start: from, end: to }];
  const buckets: Bucket[] = [];
  const lastMs = stampMs(to);
  for (let start = bucketStartMs(stampMs(from), interval); start <= lastMs;) {
    const next = nextStartMs(start, interval);
    buckets.push({ start: toStamp(start), end: toStamp(next - 1000) });
    start = next;
  }
  return buckets;
}

/** The start of the bucket `count - 1` buckets before the one holding `to`: a series of `count` buckets ending at `to`. */
export function startOfLast(count: number, to: string, interval: Exclude<Interval, "all">): string {
  let start = bucketStartMs(stampMs(to), interval);
  for (let i = 1; i < count; i++) start = bucketStartMs(start - 1, interval);
  return toStamp(start);
}

/** The 14-digit start of the bucket a published_at falls in. */
export function bucketOf(publishedAt: string, interval: Exclude<Interval, "all">): string {
  return toStamp(bucketStartMs(stampMs(publishedAt), interval));
}

function stampMs(stamp: string): number {
  const ms = parseStamp(stamp);
  if (ms === undefined) throw new Error(`not a 14-digit stamp: ${stamp}`);
  return ms;
}
