import { decodeHTML, decodeHTMLStrict } from "entities";

// Text helpers shared by the GKG field parsers. GDELT writes most non-ASCII text as
// HTML character references, and a reference's own `;` collides with the `;` list
// separator, so splitting must not cut references in half.

/** Trimmed text, or null when nothing is left. */
export function textOrNull(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? "";
  return trimmed === "" ? null : trimmed;
}

/** Free text (titles, authors, quotes): every HTML entity decoded, trimmed. */
export function decodeText(value: string): string {
  return decodeHTML(value).trim();
}

/** URLs: only `;`-terminated references (`&#038;`, `&amp;`), so `&copy=1` in a query string survives. */
export function decodeUrl(value: string): string {
  return decodeHTMLStrict(value).trim();
}

/** The distinct values in first-seen order. */
export function distinct<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

// A `;` that closes a character reference (`&#xE9;`, `&amp;`) is not a separator.
const SEMICOLON_OUTSIDE_ENTITY = /(?<!&#?[A-Za-z0-9]{1,10});/;

/** Splits a `;` list whose items may contain character references (PAGE_AUTHORS). */
export function splitOutsideEntities(value: string): string[] {
  return value.split(SEMICOLON_OUTSIDE_ENTITY);
}

// URL lists are `;`-joined, but URLs carry `&#038;` and even bare `&;` (seen in the
// 2016 sample), so split only where the next item starts with a scheme. 2015/2016 rows
// write `http:/host` with one slash, hence `https?:` and not `https?://`.
const SEMICOLON_BEFORE_URL = /;(?=https?:)/i;

/** A `;`-separated URL list: decoded, trimmed, distinct, empties dropped. */
export function parseUrlList(value: string): string[] {
  if (value === "") return [];
  const urls: string[] = [];
  for (const item of value.split(SEMICOLON_BEFORE_URL)) {
    const url = decodeUrl(item.replace(/;+$/, ""));
    if (url !== "") urls.push(url);
  }
  return distinct(urls);
}
