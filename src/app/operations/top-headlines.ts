import { Type } from "@sinclair/typebox";
import { priceOf } from "../../domain/pricing.js";
import { LIST_FILTERS, LIST_PARAMS, SHARED_FILTERS } from "../../schemas/params.js";
import { SearchResponseSchema } from "../../schemas/responses.js";
import { toSearchRequest } from "../requests/search-params.js";
import { runArticleSearch, searchPriceInputs } from "./article-search.js";
import { defineOperation } from "../operation.js";

export const topHeadlinesOperation = defineOperation({
  name: "topHeadlines",
  tool: "top_headlines",
  method: "GET",
  path: "/top-headlines",
  pathParams: [],
  summary: "Newest articles first",
  description:
    "The newest articles first, ordered by `published_at` then `id` (`mode: recent`); there is no `q`. Every shared filter applies, with `facets`, `view`, and paging by `offset` or `cursor`. To poll, set `from` to your last poll and deduplicate on `id` or `story_id`. 1 credit, plus 1 per full 1,000 rows of offset; a cursor page takes 1 to 2 credits (first) or 1 to 3 (later) instead.",
  params: Type.Object({ ...SHARED_FILTERS, ...LIST_FILTERS, ...LIST_PARAMS }),
  response: SearchResponseSchema,
  prepare(params, caller, deps) {
    const request = toSearchRequest(params);
    const price = priceOf({ operation: "top_headlines", ...searchPriceInputs(request) });
    return { price, execute: runArticleSearch(request, price, caller, deps) };
  },
});
