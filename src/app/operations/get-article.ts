import { Type } from "@sinclair/typebox";
import { priceOf } from "../../domain/pricing.js";
import { Params } from "../../schemas/params.js";
import { ArticleDetailResponseSchema } from "../../schemas/responses.js";
import { getArticle } from "../../usecases/articles/get-article.js";
import { defineOperation } from "../operation.js";

export const getArticleOperation = defineOperation({
  name: "getArticle",
  tool: "get_article",
  method: "GET",
  path: "/doc/{id}",
  pathParams: ["id"],
  summary: "Get one article's full metadata",
  description:
    "Article detail: every search field plus tone details, quotes, amounts, location details, mentioned dates, names, links and images. 404 `not_found` when the id does not exist (safe to cache); 400 `invalid_parameter` on `id` when the article is older than the plan reaches (not absence; charged nothing). 1 credit.",
  params: Type.Object({ id: Params.article_id }),
  response: ArticleDetailResponseSchema,
  prepare(params, caller, deps) {
    return {
      price: priceOf({ operation: "doc" }),
      execute: () => getArticle(deps.index, params.id, caller.plan, deps.clock.now()),
    };
  },
});
