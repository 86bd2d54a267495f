import { chargeTaken } from "../../domain/billing/charge.js";
import type { Price, RankingMode, SearchExtras } from "../../domain/pricing.js";
import { resolutionTaken, resolveEntityFilters, withResolved } from "../../usecases/entities/entity-aliases.js";
import type { Caller } from "../../usecases/accounts/account-service.js";
import { searchArticles } from "../../usecases/search/search-articles.js";
import { searchByMeaning } from "../../usecases/search/search-by-meaning.js";
import type { ArticleSearchRequest } from "../../usecases/search/article-search-request.js";
import type { OperationDeps, PreparedCall } from "../operation.js";

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
): PreparedCall["execute"] {
  return async (meter) => {
    const now = deps.clock.now();
    const resolution = await resolveEntityFilters(deps.index, request.filters, caller.plan, now);
    const { mode, text } = request;
    const outcome =
      mode !== "keyword" && text !== undefined
        ? await searchByMeaning(deps.index, deps.embedder, { ...request, mode, text }, caller.plan, now)
        : await searchArticles(deps.index, request, caller.plan, now);
    meter.took(
      chargeTaken(price, {
        cursorPage: outcome.credits,
        resolution: resolutionTaken(resolution),
        candidateBatches: outcome.candidateBatches,
      }),
    );
    return withResolved(outcome.body, resolution);
  };
}
