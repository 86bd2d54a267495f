import { candidateCharge, type Price, type RankingMode, type SearchExtras } from "../domain/pricing.js";
import type { Caller } from "../services/accounts/account-service.js";
import { searchArticles } from "../services/search/search-articles.js";
import type { ArticleSearchRequest } from "../services/search/search-request.js";
import type { OperationDeps, PlannedCall } from "./operation.js";

// What /search and /top-headlines share once their request is validated: the
// price inputs beyond the base, and the run, which reports what a cursor page took.

export function searchPriceInputs(request: ArticleSearchRequest): SearchExtras & { cursor: "first" | "later" | undefined } {
  return {
    cursor: request.cursor ? (request.cursor.after ? "later" : "first") : undefined,
    offset: request.offset,
    entityIds: 0,
    candidateFilter: request.check !== undefined,
    percentilePass: request.percentile !== undefined,
  };
}

/** The ranking a keyword search is priced at; without `q` the call is a newest-first browse. */
export function pricedMode(request: ArticleSearchRequest, mode: RankingMode | undefined): RankingMode | "recent" {
  return request.keywords ? (mode ?? "keyword") : "recent";
}

export function runArticleSearch(
  request: ArticleSearchRequest,
  price: Price,
  caller: Caller,
  deps: OperationDeps,
): PlannedCall["execute"] {
  return async (meter) => {
    const outcome = await searchArticles(deps.index, request, caller.plan, deps.clock.now());
    if (outcome.credits !== undefined) meter.took(outcome.credits);
    if (outcome.candidateBatches !== undefined) meter.took(candidateCharge(price, outcome.candidateBatches));
    return outcome.body;
  };
}
