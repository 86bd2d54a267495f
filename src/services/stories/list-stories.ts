import { ATTRIBUTION } from "../../domain/attribution.js";
import type { KeywordQuery } from "../../domain/keyword-query.js";
import type { Plan } from "../../domain/plans.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import type { PartitionFailure } from "../../ports/index-backend.js";
import type { StoryIndex, StoryMatch, StoryQuery, StorySize } from "../../ports/story-index.js";
import type { StoriesResponse, StoryItem } from "../../schemas/responses.js";
import { completeness } from "../search/coverage.js";
import { applyPlanWindow } from "../search/plan-window.js";
import { assertSomethingRead, QUERY_BUDGET_MS } from "../search/search-articles.js";
import { STORY_SOURCES_CAP } from "./get-story.js";

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
    ranked = bySize(order, ranked, all.sizes);
  } else {
    ranked = [...ranked].sort(order === "relevance" ? byRelevance : byRecency);
  }

  const page = ranked.slice(request.offset, request.offset + request.limit);
  const stories: StoryItem[] = [];
  for (const match of page) {
    const found = await index.storyOverview(match.story_id, { from: reach }, { limit: 0, sources: STORY_SOURCES_CAP });
    failed.push(...found.partitionsFailed);
    const story = found.story;
    if (story === undefined) continue;
    stories.push({
      story_id: match.story_id,
      title: story.representative.title,
      url: story.representative.url,
      count: story.count,
      outlets: story.outlets,
      sources: story.sources,
      published_at: story.representative.published_at,
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

/** The stories largest first by `order`, then by the other size, then by recency. */
function bySize(order: "count" | "outlets", stories: readonly StoryMatch[], sizes: ReadonlyMap<string, StorySize>): StoryMatch[] {
  // Each story's sizes are looked up once, not once per comparison: a listing can sort every story there is.
  const sized = stories.map((story) => {
    const size = sizes.get(story.story_id);
    const count = size?.count ?? 0;
    const outlets = size?.outlets ?? 0;
    return order === "count" ? { story, first: count, second: outlets } : { story, first: outlets, second: count };
  });
  sized.sort((a, b) => b.first - a.first || b.second - a.second || byRecency(a.story, b.story));
  return sized.map((s) => s.story);
}
