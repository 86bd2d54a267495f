import { decodeCursor } from "../../src/domain/browse-cursor.js";
import type { ArticleQuery } from "../../src/domain/search-query.js";
import { toSearchRequest, type ListParams } from "../../src/app/requests/search-params.js";

// The fixed query mix of the scale benchmark, each as an HTTP path and as the
// ArticleQuery the API hands the index for it (archive plan: no window), so the
// engine's own time and the API's time are measured on the same query.

export interface BenchQuery {
  name: string;
  params: Record<string, string>;
  /** Which performance target the row is judged against, if any. */
  target?: "keyword" | "facets" | "cursor";
}

export const QUERY_MIX: readonly BenchQuery[] = [
  { name: "keyword", params: { q: "baltimore shooting" }, target: "keyword" },
  { name: "keyword, selective", params: { q: "climate" } },
  { name: "keyword, broad", params: { q: "police" } },
  { name: "keyword + 2 filters", params: { q: "baltimore shooting", language: "eng", publisher_country: "US" } },
  { name: "browse", params: {} },
  { name: "browse + cursor page 3", params: { cursor: "<page 3>" }, target: "cursor" },
  { name: "search with 3 facets", params: { q: "baltimore shooting", facets: "source,person,topic" }, target: "facets" },
  { name: "browse + filter + 3 facets", params: { person: "joe biden", facets: "source,person,topic" } },
  { name: "deep offset 5,000", params: { offset: "5000" } },
];

/** Story listings, measured over HTTP only (the archive plan: no window). */
export const STORY_MIX: readonly BenchQuery[] = [
  { name: "newest stories (default sort)", params: {} },
  { name: "newest stories, page 10", params: { offset: "90" } },
  { name: "stories for a query (relevance)", params: { q: "baltimore shooting" } },
  { name: "largest stories", params: { sort: "count" } },
];

export function storyPathOf(query: BenchQuery): string {
  return `/stories?${new URLSearchParams(query.params).toString()}`;
}

export function pathOf(query: BenchQuery): string {
  return `/search?${new URLSearchParams(query.params).toString()}`;
}

/** The index query the API runs for these parameters (see usecases/search/search-articles.ts). */
export function engineQuery(params: Record<string, string>): ArticleQuery {
  const typed: ListParams = { ...params } as ListParams;
  if (params.offset !== undefined) typed.offset = Number(params.offset);
  const request = toSearchRequest(typed);
  const query: ArticleQuery = { filters: request.filters, offset: request.offset, limit: request.limit };
  if (request.keywords) query.keywords = request.keywords;
  if (request.facets) query.facets = request.facets;
  if (request.cursor) {
    const decoded = params.cursor === "start" ? undefined : decodeCursor(params.cursor ?? "");
    query.cursor = { after: decoded?.position ?? null };
  }
  return query;
}

const byName = (mix: readonly BenchQuery[], name: string): BenchQuery => {
  const query = mix.find((q) => q.name === name);
  if (!query) throw new Error(`no query named ${name}`);
  return query;
};

/** The mixed-load row: 2 connections browse while 8 run the heaviest queries of the mixes, in turn. */
export const MIXED_LOAD = {
  browse: pathOf(byName(QUERY_MIX, "browse")),
  heavy: [
    pathOf(byName(QUERY_MIX, "search with 3 facets")),
    storyPathOf(byName(STORY_MIX, "largest stories")),
    pathOf(byName(QUERY_MIX, "keyword, broad")),
  ],
  browseConnections: 2,
  heavyConnections: 8,
} as const;
