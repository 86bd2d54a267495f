import { Type } from "@sinclair/typebox";
import { parseKeywordQuery } from "../domain/keyword-query.js";
import { priceOf } from "../domain/pricing.js";
import { Params } from "../schemas/params.js";
import { SearchResponseSchema } from "../schemas/responses.js";
import { searchArticles } from "../services/search/search-articles.js";
import { ApiError } from "../shared/api-error.js";
import { parseTimeBound } from "../shared/timestamps.js";
import { defineOperation } from "./operation.js";

const { Optional } = Type;

export const searchOperation = defineOperation({
  name: "search",
  tool: "search_news",
  method: "GET",
  path: "/search",
  pathParams: [],
  summary: "Search articles",
  description:
    "Ranked keyword search (BM25 over titles and entity names) with `q`; without `q`, a newest-first browse (`mode: recent`). Exact-match filters are case-insensitive and AND together. 1 credit, plus 1 per full 1,000 rows of offset.",
  params: Type.Object({
    q: Optional(Params.q),
    mode: Optional(Params.mode),
    source: Optional(Params.source),
    source_type: Optional(Params.source_type),
    publisher_country: Optional(Params.publisher_country),
    language: Optional(Params.language),
    from: Optional(Params.from),
    to: Optional(Params.to),
    offset: Optional(Params.offset),
    limit: Optional(Params.limit),
    view: Optional(Params.view),
  }),
  response: SearchResponseSchema,
  plan(params, caller, deps) {
    const keywords = params.q === undefined ? undefined : parseKeywordQuery(params.q);
    if (params.q !== undefined && keywords === undefined) {
      throw new ApiError("invalid_parameter", "'q' holds no word to search for: give at least one word that is not negated.", {
        parameter: "q",
      });
    }
    const from = params.from === undefined ? undefined : parseTimeBound(params.from, "start");
    const to = params.to === undefined ? undefined : parseTimeBound(params.to, "end");
    if (params.from !== undefined && from === undefined) throw notADate("from", params.from);
    if (params.to !== undefined && to === undefined) throw notADate("to", params.to);
    if (from !== undefined && to !== undefined && from > to) {
      throw new ApiError("invalid_parameter", `'from' (${params.from}) is after 'to' (${params.to}).`, { parameter: "from" });
    }
    const offset = params.offset ?? 0;
    return {
      price: priceOf({
        operation: "search",
        mode: keywords ? (params.mode ?? "keyword") : "recent",
        offset,
        entityIds: 0,
        candidateFilter: false,
        percentilePass: false,
      }),
      execute: () =>
        searchArticles(
          deps.index,
          {
            keywords,
            filters: {
              source: params.source,
              source_type: params.source_type,
              publisher_country: params.publisher_country,
              language: params.language,
              from,
              to,
            },
            offset,
            limit: params.limit ?? 10,
            view: params.view ?? "full",
          },
          caller.plan,
          deps.clock.now(),
        ),
    };
  },
});

function notADate(name: string, value: string): ApiError {
  return new ApiError(
    "invalid_parameter",
    `'${name}' is not a real date or time: ${value}. Use YYYY-MM-DD or YYYYMMDDHHMMSS (UTC).`,
    {
      parameter: name,
    },
  );
}
