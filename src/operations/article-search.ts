import { candidateCharge, type Price, type RankingMode, type SearchExtras } from "../domain/pricing.js";
import { extraResolutionCredits, resolveEntityFilters, withResolved } from "../services/entities/entity-aliases.js";
import type { Caller } from "../services/accounts/account-service.js";
import { searchArticles } from "../services/search/search-articles.js";
import { searchByMeaning } from "../services/search/search-by-meaning.js";
import type { ArticleSearchRequest } from "../services/search/search-request.js";
import type { OperationDeps, PlannedCall } from "./operation.js";

// What /search and /top-headlines share once their request is validated: the
// price inputs beyond the base, and the run, which reports what a cursor page took.

export function searchPriceInputs(request: ArticleSearchRequest): SearchExtras & { cursor: "first" | "later" | undefined } {
  return {
    cursor: request.cursor ? (request.cursor.after ? "later" : "first") : undefined,
    offset: request.offset,
    entityIds: request.filters.entities?.length ?? 0,
    candidateFilter: request.check !== undefined,
    percentilePass: request.percentile !== undefined,
  };
}

/** The ranking a keyword search is priced at; without `q` the call is a newest-first browse. */
export function pricedMode(request: ArticleSearchRequest, mode: RankingMode | undefined): RankingMode | "recent" {
  return request.keywords ? (mode ?? "keyword") : "recent";
}

/**
 * Runs a search priced at `price`: what a cursor page, resolving its entity
 * ids and checking candidate batches took is added to the fixed part.
 */
export function runArticleSearch(
  request: ArticleSearchRequest,
  price: Price,
  caller: Caller,
  deps: OperationDeps,
): PlannedCall["execute"] {
  return async (meter) => {
    const now = deps.clock.now();
    const resolution = await resolveEntityFilters(deps.index, request.filters, caller.plan, now);
    const { mode, text } = request;
    const outcome =
      mode !== "keyword" && text !== undefined
        ? await searchByMeaning(deps.index, deps.embedder, { ...request, mode, text }, caller.plan, now)
        : await searchArticles(deps.index, request, caller.plan, now);
    // A cursor page's least is 1 credit, an entity id's 1 and candidate checks' 1 batch: the price's minimum counts each at that.
    const cursorExtra = outcome.credits === undefined ? 0 : outcome.credits - 1;
    const candidateExtra = outcome.candidateBatches === undefined ? 0 : candidateCharge(price, outcome.candidateBatches) - price.min;
    meter.took(price.min + cursorExtra + extraResolutionCredits(resolution) + candidateExtra);
    return withResolved(outcome.body, resolution);
  };
}
