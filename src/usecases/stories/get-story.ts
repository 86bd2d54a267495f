import { toCompactArticle, type ArticleDetail } from "../../domain/article.js";
import { ATTRIBUTION } from "../../domain/attribution.js";
import type { Plan } from "../../domain/plans.js";
import { headlineKey } from "../../domain/stories/headline-key.js";
import type { StoryIndex } from "../../ports/story-index.js";
import type { StoryDetail, ValueCount } from "../../schemas/responses.js";
import { ApiError } from "../../shared/api-error.js";
import { completeness } from "../query-kernel/coverage.js";
import { applyPlanWindow, beyondPlanReach } from "../query-kernel/plan-window.js";

// GET /stories/{id}: one story expanded. Counts (`count`, `outlets`,
// `sources`, `first_reported`, the representative) cover every member in the
// window, as the index keeps them (ports/story-index.ts StoryOverview); the
// distributions, `first_seen`/`last_seen`, `title_variants` and
// `sources_by_first_seen` cover the listed articles only, as the spec says.

/** How many sources a story lists (those with the most articles); `outlets` is the full count. */
export const STORY_SOURCES_CAP = 20;
/** How many values each distribution lists. */
const TOP_VALUES = 10;

export interface StoryRequest {
  id: string;
  from?: string | undefined;
  to?: string | undefined;
  limit: number;
}

export async function getStory(index: StoryIndex, request: StoryRequest, plan: Plan, nowMs: number): Promise<StoryDetail> {
  const window = applyPlanWindow(plan, request.from, request.to, nowMs);
  const found = await index.storyOverview(
    request.id,
    { from: window.from, to: window.to },
    { limit: request.limit, sources: STORY_SOURCES_CAP },
  );
  const { partial, coverage } = completeness(found.partitionsFailed, found.partitionsRead);
  const story = found.story;
  if (story === undefined) {
    if (partial) {
      throw new ApiError(
        "upstream_unavailable",
        `A monthly index that could hold story ${request.id} could not be read. This is not evidence that the story is absent; retry with backoff.`,
      );
    }
    throw await absentOrOutside(index, request, window.from !== request.from, plan, nowMs);
  }
  const { listed, representative, first_reported: earliest } = story;
  const listedTimes = listed.map((a) => a.published_at ?? "");
  return {
    story_id: story.story_id,
    // A string always (spec): empty only when no member of the story has a headline (GDELT records before 2016 carry none).
    title: representative.title ?? "",
    url: representative.url,
    representative_article_id: representative.id,
    count: story.count,
    outlets: story.outlets,
    sources: story.sources,
    first_seen: listedTimes.reduce((a, b) => (b < a ? b : a), listedTimes[0] ?? earliest.published_at),
    last_seen: listedTimes.reduce((a, b) => (b > a ? b : a), listedTimes[0] ?? earliest.published_at),
    first_reported: { article_id: earliest.id, source: earliest.source, published_at: earliest.published_at },
    sources_by_first_seen: sourcesByFirstSeen(listed),
    title_variants: new Set(listed.map((a) => headlineKey(a.title, a.source) ?? "")).size,
    languages: top(listed.map((a) => a.language)),
    publisher_countries: top(listed.map((a) => a.publisher_country)),
    top_organizations: top(listed.flatMap((a) => a.organizations)),
    top_persons: top(listed.flatMap((a) => a.persons)),
    top_topics: top(listed.flatMap((a) => a.topics)),
    articles: listed.map((article) => toCompactArticle(article)),
    articles_returned: listed.length,
    articles_truncated: listed.length < story.count,
    history_days: window.history_days,
    from_clamped: window.from_clamped,
    partial,
    coverage,
    attribution: ATTRIBUTION,
  };
}

function sourcesByFirstSeen(listed: readonly ArticleDetail[]): Array<{ source: string; first_seen: string }> {
  const first = new Map<string, string>();
  for (const a of listed) {
    if (!a.source || !a.published_at) continue;
    const seen = first.get(a.source);
    if (seen === undefined || a.published_at < seen) first.set(a.source, a.published_at);
  }
  return [...first.entries()]
    .map(([source, first_seen]) => ({ source, first_seen }))
    .sort((a, b) => (a.first_seen < b.first_seen ? -1 : a.first_seen > b.first_seen ? 1 : a.source < b.source ? -1 : 1));
}

function top(values: ReadonlyArray<string | null>): ValueCount[] {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
    .slice(0, TOP_VALUES);
}

/**
 * 404 is a cacheable statement that the story does not exist (spec: "every
 * partition that could hold the story says it is absent"). A story that
 * exists but has no article in the window (the plan's reach, or `from`/`to`)
 * is not absent: that is 400 `invalid_parameter`, never cached, never charged;
 * beyond the plan's reach it is the answer every id endpoint gives
 * (plan-window.ts `beyondPlanReach`), whatever `from` was given.
 */
async function absentOrOutside(
  index: StoryIndex,
  request: StoryRequest,
  planNarrowed: boolean,
  plan: Plan,
  nowMs: number,
): Promise<ApiError> {
  const exists = (window: { from?: string | undefined; to?: string | undefined }) =>
    index.storyOverview(request.id, window, { limit: 1, sources: 1 });
  const anywhere = await exists({});
  if (anywhere.story === undefined) {
    if (anywhere.partitionsFailed.length > 0) {
      return new ApiError(
        "upstream_unavailable",
        `A monthly index that could hold story ${request.id} could not be read. This is not evidence that the story is absent; retry with backoff.`,
      );
    }
    return new ApiError("not_found", `No story has the id ${request.id}.`);
  }
  const hiddenByPlan = planNarrowed && (await exists({ from: request.from, to: request.to })).story !== undefined;
  if (hiddenByPlan) return beyondPlanReach(`Story ${request.id}`, plan, nowMs);
  return new ApiError(
    "invalid_parameter",
    `Story ${request.id} exists, but none of its articles falls between 'from' and 'to'; widen the window or leave it out. This is not a statement that it is absent.`,
    { parameter: "from" },
  );
}
