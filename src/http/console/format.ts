// How the console shows figures and times.

/** A 14-digit UTC stamp as `2026-11-28 00:15 UTC`; a dash when absent. */
export function formatStamp(stamp: string | null | undefined): string {
  if (!stamp || stamp.length < 12) return "—";
  return `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)} ${stamp.slice(8, 10)}:${stamp.slice(10, 12)} UTC`;
}

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** Only http(s) links are rendered as links: an article's URL comes from outside. */
export function safeLink(url: string | null | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}
