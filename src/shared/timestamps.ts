// 14-digit UTC timestamps (`YYYYMMDDHHMMSS`), the spec's time format.

const FOURTEEN = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses a 14-digit stamp to epoch ms; undefined when it is not a real instant. */
export function parseStamp(stamp: string): number | undefined {
  const m = FOURTEEN.exec(stamp);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  // Not Date.UTC: it reads years 0 to 99 as 1900 to 1999, so `0001-01-01` would not round-trip.
  const back = new Date(0);
  back.setUTCFullYear(y, mo - 1, d);
  back.setUTCHours(h, mi, s, 0);
  const ms = back.getTime();
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  if (h > 23 || mi > 59 || s > 59) return undefined;
  return ms;
}

export function toStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/**
 * A `from`/`to` bound: `YYYY-MM-DD` or 14-digit. A day as `to` means the end of
 * that day, so `from=2023-07-02&to=2023-07-02` covers the whole day.
 */
export function parseTimeBound(value: string, edge: "start" | "end"): string | undefined {
  if (FOURTEEN.test(value)) return parseStamp(value) === undefined ? undefined : value;
  const m = DAY.exec(value);
  if (!m) return undefined;
  const stamp = `${m[1]}${m[2]}${m[3]}${edge === "start" ? "000000" : "235959"}`;
  return parseStamp(stamp) === undefined ? undefined : stamp;
}

/** `YYYYMM` month key of a stamp: the partition an article's collection time falls in. */
export function monthOf(stamp: string): string {
  return stamp.slice(0, 6);
}
