import { ATTRIBUTION } from "../../domain/attribution.js";
import type { KeywordQuery } from "../../domain/keyword-query.js";
import type { Plan } from "../../domain/plans.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import type { PartitionFailure } from "../../ports/index-backend.js";
import type { StoryIndex, StoryMatch, StoryQuery, StorySize } from "../../ports/story-index.js";
import type { Coverage } from "../../schemas/responses.js";
import { completeness } from "../search/coverage.js";
import { applyPlanWindow } from "../search/plan-window.js";
import { assertSomethingRead, QUERY_BUDGET_MS } from "../search/search-articles.js";
import { STORY_SOURCES_CAP } from "./get-story.js";
import { representativeOf } from "./representative.js";

// GET /stories: the search collapsed into stories. `q`, the filters and the
// window choose which stories appear (any member matching is enough); a
// story's `count`, `outlets` and `sources` cover all of it within the plan's
// reach, so they equal /stories/{id}'s without from/to, and a story keeps
// growing in the list as outlets pick it up (what watches count).

export type StorySort = "count" | "outlets" | "recency";

/** Without `sort`: the best match first when there is a `q`, else the newest (docs/completeness.md). */
type StoryOrder = StorySort | "relevance";

export interface StoriesRequest {
  keywords: KeywordQuery | undefined;
  filters: ArticleFilters;
  sort: StorySort | undefined;
  offset: number;
  limit: number;
}

export interface StoryItem {
  story_id: string;
  title: string | null;
  url: string | null;
  count: number;
  outlets: number;
  sources: string[];
  published_at: string;
}

export interface StoriesResponse {
  stories: StoryItem[];
  total: number;
  total_relation: "exact" | "approximate";
  offset: number;
  limit: number;
  has_more: boolean;
  history_days: number | null;
  from_clamped: boolean;
  partial: boolean;
  coverage: Coverage;
  attribution: string;
}

function orderOf(request: Pick<StoriesRequest, "keywords" | "sort">): StoryOrder {
  return request.sort ?? (request.keywords ? "relevance" : "recency");
}

export async function listStories(
  index: StoryIndex,
  request: StoriesRequest,
  plan: Plan,
  nowMs: number,
  budgetMs = QUERY_BUDGET_MS,
): Promise<StoriesResponse> {
  const window = applyPlanWindow(plan, request.filters.from, request.filters.to, nowMs);
  const reach = applyPlanWindow(plan, undefined, undefined, nowMs).from;
  const order = orderOf(request);
  const query: StoryQuery = { filters: { ...request.filters, from: window.from, to: window.to }, budgetMs };
  if (request.keywords) query.keywords = request.keywords;
  // In recency order only the page and the stories before it are needed, besides the total.
  if (order === "recency") query.newest = request.offset + request.limit;
  const matches = await index.matchStories(query);
  assertSomethingRead(matches);
  const read = [...matches.partitionsRead];
  const failed: PartitionFailure[] = [...matches.partitionsFailed];

  let ranked = matches.stories;
  if (order === "count" || order === "outlets") {
    // Sorting by size needs every matching story's size, not only the page's.
    const all = await index.storySizes(
      ranked.map((s) => s.story_id),
      reach,
    );
    failed.push(...all.partitionsFailed);
    ranked = [...ranked].sort(bySize(order, all.sizes));
  } else {
    ranked = [...ranked].sort(order === "relevance" ? byRelevance : byRecency);
  }

  const page = ranked.slice(request.offset, request.offset + request.limit);
  const stories: StoryItem[] = [];
  for (const story of page) {
    const found = await index.storyMembers(story.story_id, { from: reach }, 0);
    failed.push(...found.partitionsFailed);
    if (found.members.length === 0) continue;
    const representative = representativeOf(found.members);
    const sources = [...new Set(found.members.flatMap((m) => (m.source === null ? [] : [m.source])))];
    stories.push({
      story_id: story.story_id,
      title: representative.title,
      url: representative.url,
      count: found.members.length,
      outlets: sources.length,
      sources: sources.slice(0, STORY_SOURCES_CAP),
      published_at: representative.published_at,
    });
  }

  const { partial, coverage } = completeness(failed, read);
  return {
    stories,
    total: matches.total,
    total_relation: "exact",
    offset: request.offset,
    limit: request.limit,
    has_more: request.offset + page.length < matches.total,
    history_days: window.history_days,
    from_clamped: window.from_clamped,
    partial,
    coverage,
    attribution: ATTRIBUTION,
  };
}

/** Newest matching member first; ties by story id, newest first, so pages are stable. */
function byRecency(a: StoryMatch, b: StoryMatch): number {
  if (a.newest !== b.newest) return a.newest < b.newest ? 1 : -1;
  return a.story_id < b.story_id ? 1 : a.story_id > b.story_id ? -1 : 0;
}

function byRelevance(a: StoryMatch, b: StoryMatch): number {
  return (b.score ?? 0) - (a.score ?? 0) || byRecency(a, b);
}

function bySize(order: "count" | "outlets", sizes: ReadonlyMap<string, StorySize>): (a: StoryMatch, b: StoryMatch) => number {
  const count = (s: StoryMatch): number => sizes.get(s.story_id)?.count ?? 0;
  const outlets = (s: StoryMatch): number => sizes.get(s.story_id)?.sources.size ?? 0;
  return order === "count"
    ? (a, b) => count(b) - count(a) || outlets(b) - outlets(a) || byRecency(a, b)
    : (a, b) => outlets(b) - outlets(a) || count(b) - count(a) || byRecency(a, b);
}
