import { toCompactArticle, type ArticleDetail } from "../../domain/article.js";
import { ATTRIBUTION } from "../../domain/attribution.js";
import type { Plan } from "../../domain/plans.js";
import { headlineWords } from "../../domain/stories/story-features.js";
import type { StoryIndex } from "../../ports/story-index.js";
import type { Coverage } from "../../schemas/responses.js";
import { ApiError } from "../../shared/api-error.js";
import { completeness } from "../search/coverage.js";
import { applyPlanWindow } from "../search/plan-window.js";
import { representativeOf } from "./representative.js";

// GET /stories/{id}: one story expanded. Counts (`count`, `outlets`,
// `sources`, `first_reported`) cover every member in the window; the
// distributions, `first_seen`/`last_seen`, `title_variants` and
// `sources_by_first_seen` cover the listed articles only, as the spec says.

/** How many sources a story lists; `outlets` is the full count. */
export const STORY_SOURCES_CAP = 20;
/** How many values each distribution lists. */
const TOP_VALUES = 10;

export interface ValueCount {
  value: string;
  count: number;
}

export interface StoryDetail {
  story_id: string;
  title: string | null;
  url: string | null;
  representative_article_id: string;
  count: number;
  outlets: number;
  sources: string[];
  first_seen: string;
  last_seen: string;
  first_reported: { article_id: string; source: string | null; published_at: string };
  sources_by_first_seen: Array<{ source: string; first_seen: string }>;
  title_variants: number;
  languages: ValueCount[];
  publisher_countries: ValueCount[];
  top_organizations: ValueCount[];
  top_persons: ValueCount[];
  top_topics: ValueCount[];
  articles: Array<Record<string, unknown>>;
  articles_returned: number;
  articles_truncated: boolean;
  history_days: number | null;
  from_clamped: boolean;
  partial: boolean;
  coverage: Coverage;
  attribution: string;
}

export interface StoryRequest {
  id: string;
  from?: string | undefined;
  to?: string | undefined;
  limit: number;
}

export async function getStory(index: StoryIndex, request: StoryRequest, plan: Plan, nowMs: number): Promise<StoryDetail> {
  const window = applyPlanWindow(plan, request.from, request.to, nowMs);
  const found = await index.storyMembers(request.id, { from: window.from, to: window.to }, request.limit);
  const { partial, coverage } = completeness(found.partitionsFailed, found.partitionsRead);
  if (found.members.length === 0) {
    if (partial) {
      throw new ApiError(
        "upstream_unavailable",
        `A monthly index that could hold story ${request.id} could not be read. This is not evidence that the story is absent; retry with backoff.`,
      );
    }
    throw new ApiError("not_found", `No story has the id ${request.id} in the requested window.`);
  }
  const { members, listed } = found;
  const storyId = listed[0]?.story_id ?? request.id;
  const representative = representativeOf(members);
  const earliest = members.reduce((a, b) =>
    b.published_at < a.published_at || (b.published_at === a.published_at && b.id < a.id) ? b : a,
  );
  const sources = distinct(members.map((m) => m.source));
  const listedTimes = listed.map((a) => a.published_at ?? "");
  return {
    story_id: storyId,
    title: representative.title,
    url: representative.url,
    representative_article_id: representative.id,
    count: members.length,
    outlets: sources.length,
    sources: sources.slice(0, STORY_SOURCES_CAP),
    first_seen: listedTimes.reduce((a, b) => (b < a ? b : a)),
    last_seen: listedTimes.reduce((a, b) => (b > a ? b : a)),
    first_reported: { article_id: earliest.id, source: earliest.source, published_at: earliest.published_at },
    sources_by_first_seen: sourcesByFirstSeen(listed),
    title_variants: new Set(listed.map((a) => headlineWords(a.title ?? "", a.source).join(" "))).size,
    languages: top(listed.map((a) => a.language)),
    publisher_countries: top(listed.map((a) => a.publisher_country)),
    top_organizations: top(listed.flatMap((a) => a.organizations)),
    top_persons: top(listed.flatMap((a) => a.persons)),
    top_topics: top(listed.flatMap((a) => a.topics)),
    articles: listed.map((article) => toCompactArticle(article)),
    articles_returned: listed.length,
    articles_truncated: listed.length < members.length,
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

function distinct(values: ReadonlyArray<string | null>): string[] {
  return [...new Set(values.filter((v): v is string => v !== null))];
}
