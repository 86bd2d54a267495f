import { shardSize, type Facet } from "../../domain/facets.js";
import type { FilterField } from "../../domain/filter-fields.js";
import type { FacetRequest } from "../../domain/search-query.js";
import { foldValue } from "../../domain/filter-fields.js";
import { FILTER_PATHS, SPELLED_FIELDS } from "./article-mapping.js";
import type { Aggregations } from "./search-request.js";

// Facets as terms aggregations over the whole match set: the node counts each
// folded value per shard, keeps its top `shard_size`, and merges them, with
// `doc_count_error_upper_bound` and `sum_other_doc_count` passed through as
// the spec names them. A field whose values can carry capitals names each
// bucket by a spelling an article carries: one matching article's values of
// the field (`top_hits`), the one that folds to the bucket's key.

const PREFIX = "facet_";
const SPELLING = "spelling";

interface Bucket {
  key: string;
  doc_count: number;
  [SPELLING]?: { hits: { hits: Array<{ _source?: unknown }> } };
}

interface TermsAggregate {
  doc_count_error_upper_bound: number;
  sum_other_doc_count: number;
  buckets: Bucket[];
}

export function facetAggregations(request: FacetRequest): Aggregations {
  const aggs: Aggregations = {};
  for (const field of request.fields) {
    const path = FILTER_PATHS[field];
    aggs[`${PREFIX}${field}`] = {
      terms: {
        field: path,
        size: request.limit,
        // As many per shard as the embedded index keeps per month, so both shapes err alike.
        shard_size: shardSize(request.limit),
        // An empty value (a quote without a verb) is no value.
        exclude: [""],
      },
      ...(SPELLED_FIELDS.has(field) ? { aggs: { [SPELLING]: { top_hits: { size: 1, _source: { includes: [path] } } } } } : {}),
    };
  }
  return aggs;
}

export function readFacets(
  request: FacetRequest,
  aggregations: Record<string, unknown> | undefined,
): Partial<Record<FilterField, Facet>> {
  const facets: Partial<Record<FilterField, Facet>> = {};
  for (const field of request.fields) {
    const terms = aggregations?.[`${PREFIX}${field}`] as TermsAggregate | undefined;
    const error = terms?.doc_count_error_upper_bound ?? 0;
    facets[field] = {
      values: (terms?.buckets ?? []).map((b) => ({ value: spellingOf(b, FILTER_PATHS[field]), count: b.doc_count })),
      sum_other_doc_count: terms?.sum_other_doc_count ?? 0,
      doc_count_error_upper_bound: error,
      approximate: error > 0,
    };
  }
  return facets;
}

/** The value of the bucket's article at `path` that folds to the bucket's key; the key itself without one. */
function spellingOf(bucket: Bucket, path: string): string {
  const source = bucket[SPELLING]?.hits.hits[0]?._source;
  if (source === undefined) return bucket.key;
  return valuesAt(source, path.split(".")).find((v) => foldValue(v) === bucket.key) ?? bucket.key;
}

/** The strings at a dotted path of a document, through arrays of objects (`quotes.verb`). */
function valuesAt(node: unknown, path: readonly string[]): string[] {
  if (Array.isArray(node)) return node.flatMap((item) => valuesAt(item, path));
  if (path.length === 0) return typeof node === "string" ? [node] : [];
  if (typeof node !== "object" || node === null) return [];
  const [head, ...rest] = path;
  return valuesAt((node as Record<string, unknown>)[head as string], rest);
}
