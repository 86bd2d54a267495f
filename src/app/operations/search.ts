import { Type } from "@sinclair/typebox";
import { priceOf } from "../../domain/pricing.js";
import { LIST_FILTERS, LIST_PARAMS, Params, SHARED_FILTERS } from "../../schemas/params.js";
import { SearchResponseSchema } from "../../schemas/responses.js";
import { toSearchRequest } from "../requests/search-params.js";
import { pricedMode, runArticleSearch, searchPriceInputs } from "./article-search.js";
import { defineOperation } from "../operation.js";

export const searchOperation = defineOperation({
  name: "search",
  tool: "search_news",
  method: "GET",
  path: "/search",
  pathParams: [],
  summary: "Search articles",
  description:
    "Ranked search with `q`: `mode=keyword` (default; BM25 over titles and entity names), `semantic` (meaning: finds paraphrases and other languages) or `hybrid` (both fused); semantic and hybrid rank a bounded candidate set, so their `total` is `approximate` and facets count over that set. Without `q`, a newest-first browse (`mode: recent`). Exact-match filters are case-insensitive and AND together; `facets` counts values over the whole match set. Page with `offset`, or, on a browse, with `cursor`. 1 credit (semantic 2, hybrid 3), plus 1 per full 1,000 rows of offset; a cursor page takes 1 to 2 credits (first) or 1 to 3 (later) instead.",
  params: Type.Object({
    q: Type.Optional(Params.q),
    mode: Type.Optional(Params.mode),
    ...SHARED_FILTERS,
    ...LIST_FILTERS,
    ...LIST_PARAMS,
  }),
  response: SearchResponseSchema,
  prepare(params, caller, deps) {
    const request = toSearchRequest(params);
    const price = priceOf({ operation: "search", mode: pricedMode(request, params.mode), ...searchPriceInputs(request) });
    return { price, execute: runArticleSearch(request, price, caller, deps) };
  },
});
