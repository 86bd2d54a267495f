import type { RankingMode, SearchExtras } from "../domain/pricing.js";
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
    entityIds: 0,
    candidateFilter: false,
    percentilePass: false,
  };
}

/** The ranking a keyword search is priced at; without `q` the call is a newest-first browse. */
export function pricedMode(request: ArticleSearchRequest, mode: RankingMode | undefined): RankingMode | "recent" {
  return request.keywords ? (mode ?? "keyword") : "recent";
}

export function runArticleSearch(request: ArticleSearchRequest, caller: Caller, deps: OperationDeps): PlannedCall["execute"] {
  return async (meter) => {
    const { mode, text } = request;
    const outcome =
      mode !== "keyword" && text !== undefined
        ? await searchByMeaning(deps.index, deps.embedder, { ...request, mode, text }, caller.plan, deps.clock.now())
        : await searchArticles(deps.index, request, caller.plan, deps.clock.now());
    if (outcome.credits !== undefined) meter.took(outcome.credits);
    return outcome.body;
  };
}
