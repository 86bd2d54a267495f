import type { Amount, Quote, SourceType } from "../../domain/article.js";
import { decodeText, distinct, splitOutsideEntities } from "./gkg-text.js";
import { untranslatedLanguage } from "./title-language.js";

// Parsers for the smaller GKG columns. All are total: a malformed item is dropped or
// becomes null, never an exception, so one odd value never costs the whole record.

/** A finite number, or null for empty / unparseable input. */
export function toNumber(value: string | undefined): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === "") return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

export interface Tone {
  tone: number | null;
  positive_score: number | null;
  negative_score: number | null;
  polarity: number | null;
  activity_density: number | null;
  self_reference_density: number | null;
  word_count: number | null;
}

/** V1.5Tone: `tone,positive,negative,polarity,activity density,self/group density,word count`. */
export function parseTone(field: string): Tone {
  const v = field.split(",");
  const words = toNumber(v[6]);
  return {
    tone: toNumber(v[0]),
    positive_score: toNumber(v[1]),
    negative_score: toNumber(v[2]),
    polarity: toNumber(v[3]),
    activity_density: toNumber(v[4]),
    self_reference_density: toNumber(v[5]),
    word_count: words !== null && Number.isSafeInteger(words) && words >= 0 ? words : null,
  };
}

/**
 * The names of a V2 `Name,offset;Name,offset` list, in first-seen order. The offset is
 * what follows the last comma, so a name holding a comma survives.
 */
export function offsetListNames(field: string): string[] {
  const names: string[] = [];
  for (const entry of field.split(";")) {
    const comma = entry.lastIndexOf(",");
    const name = (comma === -1 ? entry : entry.slice(0, comma)).trim();
    if (name !== "") names.push(name);
  }
  return names;
}

/** The items of a plain V1 `a;b;c` list (GDELT ends some with a stray `;`). */
export function plainListItems(field: string): string[] {
  return field
    .split(";")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** Persons / organizations / topics: V2 list lower-cased and distinct, V1 list when V2 is empty. */
export function lowerCasedEntities(v2Field: string, v1Field: string): string[] {
  const names = offsetListNames(v2Field);
  const chosen = names.length > 0 ? names : plainListItems(v1Field);
  return distinct(chosen.map((name) => name.toLowerCase()));
}

/** PAGE_AUTHORS: `;`-separated (never `,` in the samples: "Smith, John" stays one author), entity-decoded. */
export function parseAuthors(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const authors = splitOutsideEntities(raw)
    .map(decodeText)
    .filter((author) => author !== "");
  return distinct(authors);
}

// Quotation entries start with `offset|length|`; splitting only there keeps a `#`
// inside a quote from cutting it.
const QUOTE_ENTRY_START = /#(?=\d+\|\d+\|)/;

/** V2.1Quotations: `offset|length|verb|quote` entries joined by `#`. */
export function parseQuotations(field: string): Quote[] {
  if (field === "") return [];
  const quotes: Quote[] = [];
  for (const entry of field.split(QUOTE_ENTRY_START)) {
    const parts = entry.split("|");
    if (parts.length < 4) continue;
    const text = decodeText(parts.slice(3).join("|"));
    if (text === "") continue;
    quotes.push({ text, verb: decodeText(parts[2] ?? "") });
  }
  return quotes;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** `number` of an amount as written: plain decimal notation only (no hex, no `Infinity`). */
export function amountNumber(value: string): number | null {
  if (!DECIMAL.test(value)) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * V2.1Amounts: `amount,object,offset;…`. The amount is before the first comma and the
 * offset after the last; the object is everything between, so an object holding commas
 * survives. An entry without an offset (`amount,object`) is taken as is.
 */
export function parseAmounts(field: string): Amount[] {
  const amounts: Amount[] = [];
  for (const entry of field.split(";")) {
    const first = entry.indexOf(",");
    if (first === -1) continue;
    const last = entry.lastIndexOf(",");
    const value = entry.slice(0, first).trim();
    const hasOffset = last > first && /^\s*\d+\s*$/.test(entry.slice(last + 1));
    const object = decodeText(entry.slice(first + 1, hasOffset ? last : entry.length));
    if (value === "" && object === "") continue;
    amounts.push({ number: amountNumber(value), object, value });
  }
  return amounts;
}

const SRCLC = /(?:^|;)\s*srclc:([A-Za-z]{3})\s*(?:;|$)/;

/** ISO 639-3 from V2.1TranslationInfo `srclc:fra;eng:…`; without translation info, English unless the title is clearly not. */
export function parseLanguage(field: string, title: string | null): string | null {
  if (field.trim() === "") return untranslatedLanguage(title);
  const match = SRCLC.exec(field);
  return match?.[1] ? match[1].toLowerCase() : null;
}

const SOURCE_TYPE_BY_COLLECTION: ReadonlyMap<string, SourceType> = new Map<string, SourceType>([
  ["1", "web"],
  ["2", "citation"],
  ["3", "academic_archive"],
  ["4", "defense_archive"],
  ["5", "journal_archive"],
  ["6", "non_textual"],
]);

export function sourceTypeOf(collection: string): SourceType {
  return SOURCE_TYPE_BY_COLLECTION.get(collection.trim()) ?? "other";
}

/** SourceCommonName as a bare lower-case host: no scheme, no leading `www.`. */
export function normaliseSource(field: string): string | null {
  const source = field
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/^www\./, "")
    .replace(/\/+$/, "");
  return source === "" ? null : source;
}

const WEB_URL = /^https?:\/\//i;

/** DocumentIdentifier when it is a URL: always for collection 1 (web), else only if it looks like one. */
export function documentUrl(collection: string, identifier: string): string | null {
  const id = identifier.trim();
  if (id === "") return null;
  return collection.trim() === "1" || WEB_URL.test(id) ? id : null;
}
