import type { API, Client } from "@opensearch-project/opensearch";
import type { Query } from "./query-dsl.js";

// One typed door to `_search`. The client's generated request types leave out
// parts of the DSL this adapter uses (a terms aggregation's `field`, among
// others), so bodies are built to the narrow shapes below and handed over
// here, in one place; responses are read through the same narrow shapes.

export type Aggregations = Record<string, Record<string, unknown>>;

export interface SearchBody {
  query?: Query;
  sort?: Array<Record<string, "asc" | "desc" | Record<string, unknown>>>;
  search_after?: Array<string | number>;
  from?: number;
  size?: number;
  track_total_hits?: boolean | number;
  _source?: boolean | { excludes?: string[]; includes?: string[] };
  aggs?: Aggregations;
  pit?: { id: string; keep_alive?: string };
  timeout?: string;
}

export interface ShardFailure {
  index?: string;
  shard?: number;
  reason?: { type?: string; reason?: string };
}

export interface SearchHitBody<S> {
  _index: string;
  _id: string;
  _score: number | null;
  _source?: S;
  sort?: Array<string | number>;
}

export interface SearchResponse<S> {
  took: number;
  timed_out: boolean;
  _shards: { total: number; successful: number; skipped?: number; failed: number; failures?: ShardFailure[] };
  hits: { total?: { value: number; relation: "eq" | "gte" }; hits: Array<SearchHitBody<S>> };
  aggregations?: Record<string, unknown>;
  pit_id?: string;
}

export interface SearchParams {
  /** Indices (or aliases), comma-joined; absent with a point in time. */
  index?: string;
  body: SearchBody;
  /** Scores with term statistics summed over every index asked, not each index's own. */
  dfs?: boolean;
  /** Unknown or closed indices among `index` are skipped rather than failing the search. */
  ignoreUnavailable?: boolean;
}

export async function search<S>(client: Client, params: SearchParams): Promise<SearchResponse<S>> {
  const request: API.Search_Request = {
    ...(params.index !== undefined ? { index: params.index } : {}),
    body: params.body as API.Search_RequestBody,
    ...(params.dfs ? { search_type: "dfs_query_then_fetch" as const } : {}),
    ...(params.ignoreUnavailable ? { ignore_unavailable: true, allow_no_indices: true } : {}),
  };
  const { body } = await client.search(request);
  return body as unknown as SearchResponse<S>;
}
