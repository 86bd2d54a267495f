import { createHash } from "node:crypto";
import type { ArticleDetail } from "./article.js";

// Cursor paging of newest-first browses (spec section 4, Pagination rule 3).
// The cursor is opaque to clients: base64url of a small JSON object holding
// the last article served (published_at, id), how many articles of that
// timestamp have been served so far (for the 5,000-per-timestamp limit), and a
// fingerprint of the filters and window, so a cursor replayed with other
// filters is refused rather than silently paging another result set.

/** A single timestamp yields at most this many articles to cursor paging (spec section 8). */
export const TIE_GROUP_LIMIT = 5000;

/** An article's place in browse order: its published_at; without one, when it was collected; else its id's stamp. */
export function browseStamp(article: Pick<ArticleDetail, "id" | "published_at" | "collected_at">): string {
  return article.published_at ?? article.collected_at ?? article.id.slice(0, 14);
}

export interface CursorPosition {
  /** The last article served, in browse order (published_at desc, then id desc). */
  published_at: string;
  id: string;
  /** Articles with this published_at served so far, this page included. */
  served: number;
}

export interface DecodedCursor {
  position: CursorPosition;
  fingerprint: string;
}

const VERSION = 1;

export function encodeCursor(position: CursorPosition, fingerprint: string): string {
  const body = { v: VERSION, p: position.published_at, i: position.id, n: position.served, f: fingerprint };
  return Buffer.from(JSON.stringify(body)).toString("base64url");
}

/** Undefined when `text` is not a cursor this server issued (in this format). */
export function decodeCursor(text: string): DecodedCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(text)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  if (typeof body !== "object" || body === null) return undefined;
  const { v, p, i, n, f } = body as Record<string, unknown>;
  if (v !== VERSION || typeof p !== "string" || !/^\d{14}$/.test(p)) return undefined;
  if (typeof i !== "string" || i === "" || typeof f !== "string") return undefined;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) return undefined;
  return { position: { published_at: p, id: i, served: n }, fingerprint: f };
}

/** A short digest of the filters and window as the caller gave them (absent ones left out, order-free). */
export function fingerprintOf(filters: Readonly<Record<string, unknown>>): string {
  const canonical = Object.entries(filters)
    .filter((entry) => entry[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash("sha256").update(JSON.stringify(canonical)).digest("base64url").slice(0, 16);
}
