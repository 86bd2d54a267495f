// Facets (spec section 2 "Facet", section 4 Pagination rule 5): value counts
// over the whole match set. Each monthly index counts its own matches exactly
// and returns its top `shardSize(limit)` values; merging those lists is exact
// unless an index cut its list short. Then, as in Elasticsearch/OpenSearch,
// `doc_count_error_upper_bound` is the sum, over the indexes that cut their
// list, of the smallest count each returned: no value left out (or under-
// counted) can be off by more. `approximate` is true exactly when it is non-zero.

export interface FacetBucket {
  value: string;
  count: number;
}

export interface Facet {
  values: FacetBucket[];
  /** Value occurrences in the match set not shown in `values` (an article counts once per distinct value). */
  sum_other_doc_count: number;
  doc_count_error_upper_bound: number;
  approximate: boolean;
}

/** One monthly index's exact counts for one field: its top values, largest first. */
export interface PartitionFacet {
  top: Array<{ key: string; value: string; count: number }>;
  /** Occurrences of the values this index did not return. */
  otherCount: number;
  /** True when the index holds more distinct matching values than it returned. */
  truncated: boolean;
}

/** How many values each monthly index returns for a facet of `limit` values (like Elasticsearch's shard_size). */
export function shardSize(limit: number): number {
  return Math.ceil(limit * 1.5) + 10;
}

export function mergeFacets(parts: readonly PartitionFacet[], limit: number): Facet {
  const merged = new Map<string, FacetBucket & { key: string }>();
  let occurrences = 0;
  for (const part of parts) {
    occurrences += part.otherCount;
    for (const bucket of part.top) {
      occurrences += bucket.count;
      const seen = merged.get(bucket.key);
      if (seen) seen.count += bucket.count;
      else merged.set(bucket.key, { key: bucket.key, value: bucket.value, count: bucket.count });
    }
  }
  const ranked = [...merged.values()].sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const values = ranked.slice(0, limit).map(({ value, count }) => ({ value, count }));
  const shown = values.reduce((sum, v) => sum + v.count, 0);
  // One index alone ranks exactly; across several, only a cut list can hide counts.
  const contributing = parts.filter((p) => p.top.length > 0);
  const error =
    contributing.length <= 1
      ? 0
      : contributing.reduce((sum, p) => sum + (p.truncated ? (p.top[p.top.length - 1]?.count ?? 0) : 0), 0);
  return {
    values,
    sum_other_doc_count: occurrences - shown,
    doc_count_error_upper_bound: error,
    approximate: error > 0,
  };
}
