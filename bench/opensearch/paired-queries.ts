// The side-by-side query mix: each query as NewsIndex /search parameters and as
// the OpenSearch _search body that asks the same of the same fields. Keyword
// search: every word must occur in the title or the entity names (FTS5's
// implicit AND over both columns; OpenSearch's cross_fields with operator
// `and`), the title weighted 10 to 1 as NewsIndex's BM25 weighs it. Every
// OpenSearch body asks for exact totals, as NewsIndex gives them.

export interface PairedQuery {
  name: string;
  params: Record<string, string>;
  os: Record<string, unknown>;
  /** NewsIndex facet field -> OpenSearch keyword field, when the query asks for facets. */
  facets?: Record<string, string>;
  /** Which throughput workload the query stands for, if any. */
  throughput?: "keyword" | "browse";
}

const match = (q: string): Record<string, unknown> => ({
  multi_match: { query: q, type: "cross_fields", operator: "and", fields: ["title^10", "entities"] },
});

const NEWEST = { sort: [{ published_at: "desc" }, { id: "desc" }] };

const FACETS = { source: "source", person: "persons", topic: "topics" };

const terms = (fields: Record<string, string>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, { terms: { field, size: 10 } }]));

const body = (query: Record<string, unknown>): Record<string, unknown> => ({ size: 10, track_total_hits: true, ...query });

export const PAIRED_QUERIES: readonly PairedQuery[] = [
  {
    name: 'keyword "baltimore shooting"',
    params: { q: "baltimore shooting" },
    os: body({ query: match("baltimore shooting") }),
    throughput: "keyword",
  },
  { name: 'keyword "police"', params: { q: "police" }, os: body({ query: match("police") }) },
  {
    name: "keyword + 3 facets",
    params: { q: "baltimore shooting", facets: Object.keys(FACETS).join(",") },
    os: body({ query: match("baltimore shooting"), aggs: terms(FACETS) }),
    facets: FACETS,
  },
  { name: "newest 10", params: {}, os: body({ query: { match_all: {} }, ...NEWEST }), throughput: "browse" },
  {
    name: "`language=eng&publisher_country=US` newest 10",
    params: { language: "eng", publisher_country: "US" },
    os: body({ query: { bool: { filter: [{ term: { language: "eng" } }, { term: { publisher_country: "US" } }] } }, ...NEWEST }),
  },
];
