import type { Static } from "@sinclair/typebox";
import { ATTRIBUTION } from "../../domain/attribution.js";
import { candidateBatches, NO_USAGE } from "../../domain/billing/index-usage.js";
import type { KeywordQuery } from "../../domain/keyword-query.js";
import type { Plan } from "../../domain/plans.js";
import type { ArticleFilters, CandidateCheck } from "../../domain/search-query.js";
import type { Embedder } from "../../ports/embedder.js";
import type { IndexBackend } from "../../ports/index-backend.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import { withSignalThreshold } from "../search/signal-percentile.js";
import type { PercentileRequest } from "../search/signal-filters.js";
import { byRecency, bySize, type RankedStory, type SizeOrder } from "../../domain/stories/story-order.js";
import type { StoryIndex, StoryLookup, StoryMatch, StoryMatches, StoryQuery } from "../../ports/story-index.js";
import type { Params } from "../../schemas/params.js";
import type { StoriesResponse, StoryItem } from "../../schemas/responses.js";
import type { Same } from "../../shared/same-type.js";
import { assertSomethingRead, mergeFailures } from "../query-kernel/coverage.js";
import { rankByMeaning, type MeaningRanking } from "../search/meaning-ranking.js";
import { checkRanking, meaningCompleteness } from "../search/search-by-meaning.js";
import { applyPlanWindow } from "../query-kernel/plan-window.js";
import { QUERY_BUDGET_MS } from "../query-kernel/query-budget.js";
import { STORY_SOURCES_CAP } from "./get-story.js";

// GET /stories: the search collapsed into stories. `q`, the filters and the
// window choose which stories appear (any member matching is enough); a
// story's `count`, `outlets` and `sources` cover all of it within the plan's
// reach, so they equal /stories/{id}'s without from/to, and a story keeps
// growing in the list as outlets pick it up (what watches count).

export type StorySort = SizeOrder | "recency";
// Compile-time: `sort` declares exactly the orders listed here.
const sortsMatch: Same<StorySort, Static<typeof Params.sort>> = true;
void sortsMatch;

/** Without `sort`: the best match first when there is a `q`, else the newest (docs/completeness.md). */
type StoryOrder = StorySort | "relevance";

export interface StoriesRequest {
  keywords: KeywordQuery | undefined;
  /** Semantic and hybrid: `q` as written, and how it ranks (the stories of the candidate set, see meaning-ranking.ts). */
  meaning?: { mode: "semantic" | "hybrid"; text: string };
  filters: ArticleFilters;
  /** `signal_percentile_min`: a threshold pass over the articles runs first (signal-percentile.ts). */
  percentile?: PercentileRequest;
  /** Geographic and amount filters, checked on candidate articles. */
  check?: CandidateCheck;
  sort: StorySort | undefined;
  offset: number;
  limit: number;
}

export interface StoriesOptions {
  budgetMs?: number;
  /** The article index, for the threshold pass of `request.percentile`. */
  articles?: Pick<IndexBackend, "signalPercentile">;
  /** Told the candidate batches the geographic and amount filters took (what the call is charged for). */
  onCandidateBatches?: (batches: number) => void;
}

function orderOf(request: Pick<StoriesRequest, "keywords" | "sort">): StoryOrder {
  return request.sort ?? (request.keywords ? "relevance" : "recency");
}

/** What /stories reads: the story queries, and for semantic and hybrid ranking the article index and the embedder. */
export interface StoryListingDeps {
  stories: StoryIndex;
  index: IndexBackend;
  embedder: Embedder;
}

export async function listStories(
  deps: StoryListingDeps,
  request: StoriesRequest,
  plan: Plan,
  nowMs: number,
  options: StoriesOptions = {},
): Promise<StoriesResponse> {
  const budgetMs = options.budgetMs ?? QUERY_BUDGET_MS;
  const articles = options.articles;
  const window = applyPlanWindow(plan, request.filters.from, request.filters.to, nowMs);
  const reach = applyPlanWindow(plan, undefined, undefined, nowMs).from;
  const order = orderOf(request);
  let query: StoryQuery = { filters: { ...request.filters, from: window.from, to: window.to }, budgetMs };
  if (request.keywords) query.keywords = request.keywords;
  if (request.check) query.check = request.check;
  const pass = request.percentile && articles ? await withSignalThreshold(articles, query, request.percentile) : undefined;
  if (pass) query = pass.query;
  // In recency order only the page and the stories before it are needed, besides the total.
  if (order === "recency") query.newest = request.offset + request.limit;
  const index = deps.stories;
  let unembedded = false;
  let matches: Pick<StoryMatches, "partitionsRead" | "partitionsFailed" | "total" | "candidates" | "usage"> & {
    stories: RankedStory[];
  };
  if (request.meaning && request.keywords) {
    const ranking = await rankByMeaning(deps.index, deps.embedder, {
      ...request.meaning,
      keywords: request.keywords,
      filters: query.filters,
      budgetMs,
    });
    unembedded = ranking.unembedded;
    const checked = request.check ? await checkRanking(deps.index, ranking, request.check) : undefined;
    if (checked) options.onCandidateBatches?.(checked.batches);
    matches = await storiesOfCandidates(index, checked?.ranking ?? ranking, order, reach);
  } else {
    // Sorting by size needs every matching story's size; the index gives the first ones, sized within the plan's reach.
    matches =
      order === "count" || order === "outlets"
        ? await index.largestStories(query, order, request.offset + request.limit, reach)
        : await index.matchStories(query);
  }
  assertSomethingRead(matches, window.to);
  const read = [...matches.partitionsRead];
  const failed: PartitionFailure[] = mergeFailures(matches.partitionsFailed, pass?.failed ?? []);
  const ranked: readonly RankedStory[] =
    request.meaning !== undefined
      ? matches.stories
      : order === "relevance"
        ? [...(matches.stories as StoryMatch[])].sort(byRelevance)
        : order === "recency"
          ? [...matches.stories].sort(byRecency)
          : matches.stories;

  const page = ranked.slice(request.offset, request.offset + request.limit);
  const stories: StoryItem[] = [];
  const overviews = await index.storyOverviews(
    page.map((match) => match.story_id),
    { from: reach },
    { limit: 0, sources: STORY_SOURCES_CAP },
  );
  for (const [at, match] of page.entries()) {
    const found = overviews[at] as StoryLookup;
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

  const { partial, coverage } = meaningCompleteness({ partitionsFailed: failed, partitionsRead: read, unembedded });
  const checked = matches.candidates;
  if (checked) options.onCandidateBatches?.(candidateBatches(matches.usage));
  return {
    stories,
    total: matches.total,
    total_relation: request.meaning || checked?.approximate ? "approximate" : "exact",
    offset: request.offset,
    limit: request.limit,
    // Rule 6: paging ends with the stories of the candidates checked.
    has_more: request.offset + page.length < (checked ? checked.passed : matches.total),
    ...(pass ? { signal_threshold: pass.threshold } : {}),
    history_days: window.history_days,
    from_clamped: window.from_clamped,
    partial,
    coverage,
    attribution: ATTRIBUTION,
  };
}

/**
 * The stories of a semantic or hybrid candidate set, in the listing's order: by their best member's rank
 * (relevance), newest member, or size within the plan's reach. `total` counts them.
 */
async function storiesOfCandidates(
  index: StoryIndex,
  ranking: MeaningRanking,
  order: StoryOrder,
  reach: string | undefined,
): Promise<Pick<StoryMatches, "partitionsRead" | "partitionsFailed" | "total" | "usage"> & { stories: RankedStory[] }> {
  const best = new Map<string, RankedStory>();
  for (const hit of ranking.ranked) {
    const story_id = hit.story_id ?? hit.id;
    const seen = best.get(story_id);
    if (seen === undefined) best.set(story_id, { story_id, newest: hit.published_at });
    else if (hit.published_at > seen.newest) seen.newest = hit.published_at;
  }
  // Map order is the best member's rank.
  let stories = [...best.values()];
  const failed = [...ranking.partitionsFailed];
  if (order === "recency") stories.sort(byRecency);
  if (order === "count" || order === "outlets") {
    const sized = await index.storySizes(
      stories.map((s) => s.story_id),
      reach,
    );
    for (const f of sized.partitionsFailed) if (!failed.some((g) => g.partition === f.partition)) failed.push(f);
    stories = stories
      .map((s) => ({ ...s, count: sized.sizes.get(s.story_id)?.count ?? 0, outlets: sized.sizes.get(s.story_id)?.outlets ?? 0 }))
      .sort(bySize(order));
  }
  // The candidates were checked from their own records: nothing the index examined is priced.
  return { stories, total: stories.length, partitionsRead: ranking.partitionsRead, partitionsFailed: failed, usage: NO_USAGE };
}

function byRelevance(a: StoryMatch, b: StoryMatch): number {
  return (b.score ?? 0) - (a.score ?? 0) || byRecency(a, b);
}
