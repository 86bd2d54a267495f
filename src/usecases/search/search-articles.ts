import {
  ARTICLE_FIELDS,
  COMPACT_ARTICLE_FIELDS,
  toArticle,
  toCompactArticle,
  type Article,
  type ArticleDetail,
} from "../../domain/article.js";
import { ATTRIBUTION } from "../../domain/attribution.js";
import { candidateBatches } from "../../domain/billing/index-usage.js";
import { cursorPageCredits, resumedInTieGroup } from "../../domain/billing/cursor-page.js";
import { browseStamp, encodeCursor } from "../../domain/browse-cursor.js";
import type { Facet } from "../../domain/facets.js";
import { matchedLocations, type GeoArea, type MatchedLocation } from "../../domain/geo-area.js";
import type { FilterField } from "../../domain/filter-fields.js";
import type { Plan } from "../../domain/plans.js";
import type { ArticleQuery } from "../../domain/search-query.js";
import type { ArticleSearch, SearchHit } from "../../ports/article-search.js";
import type { SearchResponse } from "../../schemas/responses.js";
import { assertSomethingRead, completeness, mergeFailures } from "../query-kernel/coverage.js";
import { applyPlanWindow } from "../query-kernel/plan-window.js";
import { withSignalThreshold } from "./signal-percentile.js";
import type { ArticleSearchRequest } from "./article-search-request.js";
import { QUERY_BUDGET_MS } from "../query-kernel/query-budget.js";

// /search and /top-headlines: a ranked keyword search or a newest-first browse
// over every monthly index the window reaches, in the spec's Search response.

export interface SearchOutcome {
  body: SearchResponse;
  /** Credits a cursor page took (domain/billing/cursor-page.ts); undefined when the price is fixed. */
  credits?: number;
  /** With geographic or amount filters: candidate batches the most expensive index checked. */
  candidateBatches?: number;
}

export async function searchArticles(
  index: ArticleSearch,
  request: ArticleSearchRequest,
  plan: Plan,
  nowMs: number,
  budgetMs = QUERY_BUDGET_MS,
): Promise<SearchOutcome> {
  const window = applyPlanWindow(plan, request.filters.from, request.filters.to, nowMs);
  let query: ArticleQuery = {
    filters: { ...request.filters, from: window.from, to: window.to },
    offset: request.offset,
    limit: request.limit,
    budgetMs,
  };
  if (request.keywords) query.keywords = request.keywords;
  if (request.facets) query.facets = request.facets;
  if (request.cursor) query.cursor = { after: request.cursor.after };
  if (request.check) query.check = request.check;
  query.fields = fieldsRead(request.view, request.check?.area);
  const pass = request.percentile ? await withSignalThreshold(index, query, request.percentile) : undefined;
  if (pass) query = pass.query;
  const result = await index.search(query);
  assertSomethingRead(result, window.to);

  const failed = mergeFailures(result.partitionsFailed, pass?.failed ?? []);
  const { partial, coverage } = completeness(failed, result.partitionsRead);
  const cut = result.cursor?.tieGroupCut === true;
  const nextCursor =
    request.cursor && result.cursor?.next ? encodeCursor(result.cursor.next, request.cursor.fingerprint) : undefined;
  const checked = result.candidates;
  // Rule 6: past the candidates checked, totals are estimates and every facet approximate; paging ends with them.
  const facets = result.facets && checked?.approximate ? approximateFacets(result.facets) : result.facets;
  const area = request.check?.area;
  const body: SearchResponse = {
    results: result.hits.map((hit) => present(hit, request.view, area)),
    total: result.total,
    total_relation: checked?.approximate ? "approximate" : "exact",
    offset: request.offset,
    limit: request.limit,
    has_more: result.cursor
      ? result.cursor.next !== null
      : request.offset + result.hits.length < (checked ? checked.passed : result.total),
    mode: request.keywords ? "keyword" : "recent",
    ...(facets ? { facets } : {}),
    ...(nextCursor !== undefined ? { next_cursor: nextCursor } : {}),
    ...(pass ? { signal_threshold: pass.threshold } : {}),
    history_days: window.history_days,
    from_clamped: window.from_clamped,
    // A failed index's coverage outranks a cut tie group's: it says what helps (a retry, or narrowing past it).
    partial: partial || cut,
    coverage: coverage === "complete" && cut ? "range_too_wide" : coverage,
    attribution: ATTRIBUTION,
  };
  const outcome: SearchOutcome = { body };
  if (checked) outcome.candidateBatches = candidateBatches(result.usage);
  if (request.cursor && result.cursor) {
    const after = request.cursor.after;
    outcome.credits = cursorPageCredits({
      later: after !== null,
      facets: request.facets !== undefined,
      resumedInTieGroup: resumedInTieGroup(after, {
        firstPublishedAt: result.hits[0] && browseStamp(result.hits[0].article),
        tieGroupCut: result.cursor.tieGroupCut,
      }),
    });
  }
  return outcome;
}

function present(
  hit: SearchHit,
  view: ArticleSearchRequest["view"],
  area: GeoArea | undefined,
): SearchResponse["results"][number] {
  if (view === "compact") return toCompactArticle(hit.article, hit.score);
  const full: Article & { score?: number; matched_locations?: MatchedLocation[] } = toArticle(hit.article);
  if (hit.score !== undefined) full.score = hit.score;
  if (area) full.matched_locations = matchedLocations(hit.article.location_details, area);
  return full;
}

type DetailField = keyof ArticleDetail;
/** Besides the shown fields, a cursor page's price reads each hit's browse order (domain/browse-cursor.ts). */
const BROWSE_ORDER: readonly DetailField[] = ["id", "published_at", "collected_at"];
const COMPACT_READ: readonly DetailField[] = [
  ...new Set([...COMPACT_ARTICLE_FIELDS.filter((f) => f !== "score"), ...BROWSE_ORDER]),
];
const FULL_READ: readonly DetailField[] = ARTICLE_FIELDS;
const FULL_READ_IN_AREA: readonly DetailField[] = [...ARTICLE_FIELDS, "location_details"];

/** The fields `present` reads of each hit, so an engine fetching documents by field fetches only these. */
function fieldsRead(view: ArticleSearchRequest["view"], area: GeoArea | undefined): readonly DetailField[] {
  if (view === "compact") return COMPACT_READ;
  return area ? FULL_READ_IN_AREA : FULL_READ;
}

function approximateFacets(facets: Partial<Record<FilterField, Facet>>): Partial<Record<FilterField, Facet>> {
  const out: Partial<Record<FilterField, Facet>> = {};
  for (const [field, facet] of Object.entries(facets) as Array<[FilterField, Facet]>)
    out[field] = { ...facet, approximate: true };
  return out;
}
