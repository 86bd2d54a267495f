import type { ArticleDetail } from "./article.js";
import { signalValues } from "./vocabularies/signals-v1.js";

// The exact-match fields of the shared filters (spec section 4), one table.
// Each has a stable numeric code, stored in the index (so codes never change
// meaning), and says how its values come out of an article. Every one of them
// is also a facet field. Matching is exact and case-insensitive: both the
// stored values and the requested one go through `foldValue`.

export interface FilterFieldSpec {
  code: number;
  /** True when an article can carry several values (persons, topics, ...). */
  multi: boolean;
  values(article: ArticleDetail): readonly string[];
}

const one = (value: string | null): readonly string[] => (value === null || value === "" ? [] : [value]);

/**
 * In the spec's order. Codes 1–13 are the multi-valued fields, 14–18 the
 * single-valued ones, 19–20 the derived vocabularies (their index records it
 * was built with them: see `derived_fields` in partition-schema.ts).
 */
export const FILTER_FIELDS = {
  source: { code: 14, multi: false, values: (a: ArticleDetail) => one(a.source) },
  source_type: { code: 15, multi: false, values: (a: ArticleDetail) => one(a.source_type) },
  publisher_country: { code: 16, multi: false, values: (a: ArticleDetail) => one(a.publisher_country) },
  language: { code: 17, multi: false, values: (a: ArticleDetail) => one(a.language) },
  story_id: { code: 18, multi: false, values: (a: ArticleDetail) => one(a.story_id) },
  topic: { code: 1, multi: true, values: (a: ArticleDetail) => a.topics },
  organization: { code: 2, multi: true, values: (a: ArticleDetail) => a.organizations },
  person: { code: 3, multi: true, values: (a: ArticleDetail) => a.persons },
  name: { code: 4, multi: true, values: (a: ArticleDetail) => a.names },
  country: { code: 5, multi: true, values: (a: ArticleDetail) => a.countries },
  author: { code: 6, multi: true, values: (a: ArticleDetail) => a.authors },
  location: { code: 7, multi: true, values: (a: ArticleDetail) => a.locations },
  city: { code: 8, multi: true, values: (a: ArticleDetail) => a.cities },
  region: { code: 9, multi: true, values: (a: ArticleDetail) => a.regions },
  location_id: {
    code: 10,
    multi: true,
    values: (a: ArticleDetail) => a.location_details.flatMap((l) => (l.location_id ? [l.location_id] : [])),
  },
  mentioned_date: { code: 11, multi: true, values: (a: ArticleDetail) => a.mentioned_dates },
  quote_verb: { code: 12, multi: true, values: (a: ArticleDetail) => a.quotes.map((q) => q.verb).filter((v) => v !== "") },
  amount_object: { code: 13, multi: true, values: (a: ArticleDetail) => a.amounts.map((m) => m.object).filter((o) => o !== "") },
  // Derived fields (DESIGN.md "Derived vocabularies").
  event_type: { code: 19, multi: true, values: (a: ArticleDetail) => a.event_types ?? [] },
  /** The signals an article carries (intensity above 0); their intensities are kept beside (`signal_values`). */
  signal: { code: 20, multi: true, values: (a: ArticleDetail) => signalValues(a.signals).map(([name]) => name) },
} as const satisfies Record<string, FilterFieldSpec>;

export type FilterField = keyof typeof FILTER_FIELDS;

export const FILTER_FIELD_NAMES = Object.keys(FILTER_FIELDS) as FilterField[];

const BY_CODE = new Map<number, FilterField>(FILTER_FIELD_NAMES.map((name) => [FILTER_FIELDS[name].code, name]));

export function fieldOfCode(code: number): FilterField | undefined {
  return BY_CODE.get(code);
}

export function isFilterField(name: string): name is FilterField {
  return Object.hasOwn(FILTER_FIELDS, name);
}

/** The case-insensitive matching key of a value: Unicode lower case of its NFC form, trimmed. */
export function foldValue(value: string): string {
  // NFC leaves ASCII unchanged; skipping it keeps bulk ingest fast.
  const nfc = ASCII.test(value) ? value : value.normalize("NFC");
  return nfc.trim().toLowerCase();
}

const ASCII = /^[\x00-\x7f]*$/;

export interface FieldValue {
  code: number;
  /** `foldValue` of the value: what matching compares. */
  key: string;
  /** The value as the article carries it (the first spelling, when several fold alike). */
  value: string;
}

/** Every filterable value an article carries, once per field and folded key. */
export function filterValuesOf(article: ArticleDetail): FieldValue[] {
  const out: FieldValue[] = [];
  for (const name of FILTER_FIELD_NAMES) {
    const field: FilterFieldSpec = FILTER_FIELDS[name];
    const seen = new Set<string>();
    for (const value of field.values(article)) {
      const key = foldValue(value);
      if (key === "" || seen.has(key)) continue;
      seen.add(key);
      out.push({ code: field.code, key, value });
    }
  }
  return out;
}
