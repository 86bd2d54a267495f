import { COMPACT_ARTICLE_FIELDS, toArticle, type Article } from "../../domain/article.js";
import { ATTRIBUTION } from "../../domain/attribution.js";
import type { KeywordQuery } from "../../domain/keyword-query.js";
import type { Plan } from "../../domain/plans.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import type { IndexBackend, SearchHit } from "../../ports/index-backend.js";
import type { Coverage } from "../../schemas/responses.js";
import { completeness } from "./coverage.js";
import { applyPlanWindow } from "./plan-window.js";

// /search and /top-headlines: a ranked keyword search or a newest-first browse
// over every monthly index the window reaches, in the spec's Search response.

export interface ArticleSearchRequest {
  keywords: KeywordQuery | undefined;
  /** `from` is clamped to the plan's reach here, so it is the caller's bound. */
  filters: ArticleFilters;
  offset: number;
  limit: number;
  view: "full" | "compact";
}

export interface SearchResponse {
  results: Array<Partial<Article> & { score?: number }>;
  total: number;
  total_relation: "exact" | "approximate";
  offset: number;
  limit: number;
  has_more: boolean;
  mode: string;
  history_days: number | null;
  from_clamped: boolean;
  partial: boolean;
  coverage: Coverage;
  attribution: string;
}

export async function searchArticles(
  index: IndexBackend,
  request: ArticleSearchRequest,
  plan: Plan,
  nowMs: number,
): Promise<SearchResponse> {
  const window = applyPlanWindow(plan, request.filters.from, request.filters.to, nowMs);
  const result = await index.search({
    ...(request.keywords ? { keywords: request.keywords } : {}),
    filters: { ...request.filters, from: window.from, to: window.to },
    offset: request.offset,
    limit: request.limit,
  });
  return {
    results: result.hits.map((hit) => present(hit, request.view)),
    total: result.total,
    total_relation: "exact",
    offset: request.offset,
    limit: request.limit,
    has_more: request.offset + result.hits.length < result.total,
    mode: request.keywords ? "keyword" : "recent",
    history_days: window.history_days,
    from_clamped: window.from_clamped,
    ...completeness(result.partitionsFailed, result.partitionsRead),
    attribution: ATTRIBUTION,
  };
}

function present(hit: SearchHit, view: "full" | "compact"): Partial<Article> & { score?: number } {
  const full: Partial<Article> & { score?: number } = toArticle(hit.article);
  if (hit.score !== undefined) full.score = hit.score;
  if (view === "full") return full;
  const compact: Record<string, unknown> = {};
  for (const field of COMPACT_ARTICLE_FIELDS) {
    if (field in full) compact[field] = full[field as keyof typeof full];
  }
  return compact as Partial<Article>;
}
