import { parseStamp, toStamp } from "../../shared/timestamps.js";

// A window of published_at cut into what per-day and per-hour tallies answer
// whole: the UTC days it covers entirely, the hours it covers entirely outside
// them, and at most two stretches shorter than an hour at its edges, which only
// the articles themselves can count.

export interface WindowPieces {
  /** Whole days, inclusive, `YYYYMMDD`; absent when the window holds none (or the unit is the hour). */
  days?: { first: string; last: string };
  /** Whole hours outside `days`, inclusive ranges of `YYYYMMDDHH`: at most two. */
  hours: Array<{ first: string; last: string }>;
  /** Stretches shorter than an hour, 14-digit inclusive: at most two. */
  rest: Array<{ from: string; to: string }>;
}

const SECOND_MS = 1000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The pieces of the window [from, to] (14-digit, inclusive). With `unit` hour no day is whole: an hourly series
 * reads hours. An invalid stamp, or `from` after `to`, gives no pieces.
 */
export function windowPieces(from: string, to: string, unit: "day" | "hour"): WindowPieces {
  const start = parseStamp(from);
  const last = parseStamp(to);
  const pieces: WindowPieces = { hours: [], rest: [] };
  if (start === undefined || last === undefined || start > last) return pieces;
  const end = last + SECOND_MS;
  if (unit === "hour") {
    addHours(pieces, start, end);
    return pieces;
  }
  const whole = aligned(start, end, DAY_MS);
  if (whole === undefined) {
    addHours(pieces, start, end);
    return pieces;
  }
  pieces.days = { first: dayKey(whole.start), last: dayKey(whole.end - DAY_MS) };
  addHours(pieces, start, whole.start);
  addHours(pieces, whole.end, end);
  return pieces;
}

/** The `YYYYMMDD` of an instant (epoch ms). */
export function dayKey(ms: number): string {
  return toStamp(ms).slice(0, 8);
}

/** The `YYYYMMDDHH` of an instant (epoch ms). */
export function hourKey(ms: number): string {
  return toStamp(ms).slice(0, 10);
}

/** Whole hours of [start, end) (epoch ms, end exclusive) and what is left at either edge. */
function addHours(pieces: WindowPieces, start: number, end: number): void {
  if (start >= end) return;
  const whole = aligned(start, end, HOUR_MS);
  if (whole === undefined) {
    pieces.rest.push(stretch(start, end));
    return;
  }
  if (start < whole.start) pieces.rest.push(stretch(start, whole.start));
  pieces.hours.push({ first: hourKey(whole.start), last: hourKey(whole.end - HOUR_MS) });
  if (whole.end < end) pieces.rest.push(stretch(whole.end, end));
}

/** The largest run of whole units of `width` inside [start, end); undefined when there is none. */
function aligned(start: number, end: number, width: number): { start: number; end: number } | undefined {
  const first = Math.ceil(start / width) * width;
  const after = Math.floor(end / width) * width;
  return first < after ? { start: first, end: after } : undefined;
}

function stretch(start: number, end: number): { from: string; to: string } {
  return { from: toStamp(start), to: toStamp(end - SECOND_MS) };
}
