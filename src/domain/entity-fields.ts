import type { ArticleDetail } from "./article.js";

// The multi-valued exact-match fields of the shared filters (spec section 4),
// one table: each has a stable numeric code (stored in index side tables, so
// codes never change meaning) and how its values come out of an article.

export const ENTITY_FIELDS = {
  topic: { code: 1, values: (a: ArticleDetail) => a.topics },
  organization: { code: 2, values: (a: ArticleDetail) => a.organizations },
  person: { code: 3, values: (a: ArticleDetail) => a.persons },
  name: { code: 4, values: (a: ArticleDetail) => a.names },
  country: { code: 5, values: (a: ArticleDetail) => a.countries },
  author: { code: 6, values: (a: ArticleDetail) => a.authors },
  location: { code: 7, values: (a: ArticleDetail) => a.locations },
  city: { code: 8, values: (a: ArticleDetail) => a.cities },
  region: { code: 9, values: (a: ArticleDetail) => a.regions },
  location_id: {
    code: 10,
    values: (a: ArticleDetail) => a.location_details.flatMap((l) => (l.location_id ? [l.location_id] : [])),
  },
  mentioned_date: { code: 11, values: (a: ArticleDetail) => a.mentioned_dates },
  quote_verb: { code: 12, values: (a: ArticleDetail) => a.quotes.map((q) => q.verb).filter((v) => v !== "") },
  amount_object: { code: 13, values: (a: ArticleDetail) => a.amounts.map((m) => m.object).filter((o) => o !== "") },
} as const satisfies Record<string, { code: number; values: (a: ArticleDetail) => readonly string[] }>;

export type EntityField = keyof typeof ENTITY_FIELDS;

/** Every (code, value) pair an article carries, case-insensitively distinct. */
export function entityValuesOf(article: ArticleDetail): Array<[code: number, value: string]> {
  const pairs: Array<[number, string]> = [];
  for (const field of Object.values(ENTITY_FIELDS)) {
    const seen = new Set<string>();
    for (const value of field.values(article)) {
      const folded = value.toLowerCase();
      if (seen.has(folded)) continue;
      seen.add(folded);
      pairs.push([field.code, value]);
    }
  }
  return pairs;
}
