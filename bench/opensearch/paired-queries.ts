// The side-by-side rows: each an API call both shapes answer (the embedded
// index and the scaled shape over OpenSearch), timed beside the requests the
// scaled shape sends the node for it (captured, capture-proxy.ts). `{entity}`
// in a path is the entity id of the corpus's most mentioned "biden" (as the
// graph bench seeds its rows), found once per run.

export interface SideRow {
  name: string;
  path: string;
  /** Which throughput workload the row stands for, if any. */
  throughput?: "keyword" | "browse";
  /** An upper bound on the scaled API's p50 in ms at 1M articles, beside the ratio to raw (issue targets). */
  targetMs?: number;
}

export const SIDE_ROWS: readonly SideRow[] = [
  { name: 'keyword "baltimore shooting"', path: "/search?q=baltimore+shooting", throughput: "keyword" },
  { name: 'keyword "police"', path: "/search?q=police" },
  { name: "keyword + 3 facets", path: "/search?q=baltimore+shooting&facets=source%2Cperson%2Ctopic" },
  { name: "newest 10", path: "/search", throughput: "browse" },
  { name: "`language=eng&publisher_country=US` newest 10", path: "/search?language=eng&publisher_country=US" },
  {
    name: "/aggregate day series, stories + outlets, six months",
    path: "/aggregate?interval=day&from=2024-01-01&to=2024-06-30&metrics=stories%2Coutlets",
    targetMs: 300,
  },
  { name: "/graph/related with evidence", path: "/graph/related?entity_id={entity}&evidence=3", targetMs: 100 },
];
