import { decodeCursor } from "../../src/domain/browse-cursor.js";
import type { ArticleQuery } from "../../src/domain/search-query.js";
import { toSearchRequest, type ListParams } from "../../src/app/requests/search-params.js";
import type { MixedLoadPlan } from "./mixed-load.js";

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

/**
 * The mixed-load row, the mix of issue 33's black-box client, shared by the scale benchmark and the black-box bench
 * (bench/mixed-load-bench.ts) so their rows agree: 4 connections loop heavy calls (8 facets of 100 values over a
 * broad keyword, the largest stories by articles and by outlets, a 4-facet browse), each starting at its own, while
 * one client browses the newest articles, one request at a time, at most every 25 ms (40 a second: within the
 * archive plan's 3,000 credits a minute, so a black-box server never refuses it).
 */
export const MIXED_LOAD: MixedLoadPlan = {
  browse: pathOf(byName(QUERY_MIX, "browse")),
  heavy: [
    pathOf({
      name: "keyword + 8 facets of 100",
      params: {
        q: "police",
        facets: "source,person,organization,topic,country,language,publisher_country,event_type",
        facet_limit: "100",
      },
    }),
    storyPathOf(byName(STORY_MIX, "largest stories")),
    storyPathOf({ name: "stories with the most outlets", params: { sort: "outlets" } }),
    pathOf({ name: "browse + 4 facets", params: { facets: "source,person,topic,country" } }),
  ],
  browseConnections: 1,
  heavyConnections: 4,
  browseEveryMs: 25,
};

/** How long the browse is measured, idle and then under load: at 40 browses a second, some 800 answers for the p99. */
export const MIXED_LOAD_SECONDS = 20;
