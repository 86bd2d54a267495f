import { Type } from "@sinclair/typebox";
import { priceOf } from "../../domain/pricing.js";
import { Params } from "../../schemas/params.js";
import { SearchResponseSchema } from "../../schemas/responses.js";
import { similarArticles } from "../../usecases/search/similar-articles.js";
import { defineOperation } from "../operation.js";

export const similarOperation = defineOperation({
  name: "similar",
  tool: "find_related",
  method: "GET",
  path: "/similar/{id}",
  pathParams: ["id"],
  summary: "Articles like one article",
  description:
    "More-like-this over the semantic index: the articles nearest the seed's meaning, one per story (deduplicated across outlets), excluding the seed and its own story, best first (`mode: similar`, `total_relation: approximate`). `total` counts the related stories found; raise `limit` to see more. 404 `not_found` for an unknown seed; 503 `upstream_unavailable` when the seed's monthly index cannot be read; 400 `invalid_parameter` on `id` when the seed is older than the plan reaches (not absence; charged nothing). 2 credits.",
  params: Type.Object({
    id: Params.article_id,
    limit: Type.Optional(Params.limit),
    view: Type.Optional(Params.view),
  }),
  response: SearchResponseSchema,
  prepare(params, caller, deps) {
    return {
      price: priceOf({ operation: "similar" }),
      execute: () =>
        similarArticles(
          deps.index,
          deps.embedder,
          { id: params.id, limit: params.limit ?? 10, view: params.view ?? "full" },
          caller.plan,
          deps.clock.now(),
        ),
    };
  },
});
