import type { ArticleDetail } from "../../domain/article.js";
import { mergeFacets, type Facet } from "../../domain/facets.js";
import { FILTER_FIELDS, filterValuesOf, type FilterField } from "../../domain/filter-fields.js";

// Facets of a semantic or hybrid search: counted exactly over its candidate
// set (the articles it ranked), which is itself a bounded, approximate match
// set; so every such facet is marked `approximate` (docs/search-recipes.md).

export function candidateFacets(
  articles: readonly ArticleDetail[],
  fields: readonly FilterField[],
  limit: number,
): Partial<Record<FilterField, Facet>> {
  const counts = new Map<number, Map<string, { key: string; value: string; count: number }>>();
  for (const field of fields) counts.set(FILTER_FIELDS[field].code, new Map());
  for (const article of articles) {
    for (const { code, key, value } of filterValuesOf(article)) {
      const byKey = counts.get(code);
      if (byKey === undefined) continue;
      const seen = byKey.get(key);
      if (seen) seen.count++;
      else byKey.set(key, { key, value, count: 1 });
    }
  }
  const out: Partial<Record<FilterField, Facet>> = {};
  for (const field of fields) {
    const top = [...(counts.get(FILTER_FIELDS[field].code)?.values() ?? [])].sort((a, b) => b.count - a.count);
    out[field] = { ...mergeFacets([{ top, otherCount: 0, truncated: false }], limit), approximate: true };
  }
  return out;
}
