import { Type } from "@sinclair/typebox";
import { chargeTaken } from "../../domain/billing/charge.js";
import { priceOf } from "../../domain/pricing.js";
import { LIST_FILTERS, Params, STORY_QUERY, WINDOW } from "../../schemas/params.js";
import { StoriesResponseSchema } from "../../schemas/responses.js";
import { toSearchRequest } from "../requests/search-params.js";
import { resolutionTaken, resolveEntityFilters, withResolved } from "../../usecases/entities/entity-aliases.js";
import { listStories } from "../../usecases/stories/list-stories.js";
import { pricedMode, searchPriceInputs } from "./article-search.js";
import { defineOperation } from "../operation.js";

const { Optional } = Type;

export const listStoriesOperation = defineOperation({
  name: "listStories",
  tool: "list_stories",
  method: "GET",
  path: "/stories",
  pathParams: [],
  summary: "Search collapsed into stories",
  description:
    "The search collapsed into deduplicated stories: one item per real event, however many outlets carried it. `q`, `mode` and every shared filter choose the stories (one matching article is enough); `count`, `outlets` and `sources` cover the whole story. `sort`: `count`, `outlets` or `recency`; without it, the best match first with `q`, else the newest. `total` counts stories. Page with `offset` (at most 1000); no facets, no cursor. Preferred over /search when results feed a model. `mode=semantic|hybrid` takes the stories of a bounded candidate set (`total_relation: approximate`). 1 credit (semantic 2, hybrid 3), plus 1 per full 100 stories of offset.",
  params: Type.Object({
    ...STORY_QUERY,
    ...LIST_FILTERS,
    ...WINDOW,
    sort: Optional(Params.sort),
    offset: Optional(Params.story_offset),
    limit: Optional(Params.limit),
  }),
  response: StoriesResponseSchema,
  prepare(params, caller, deps) {
    const request = toSearchRequest(params);
    const price = priceOf({ operation: "stories", mode: pricedMode(request, params.mode), ...searchPriceInputs(request) });
    return {
      price,
      execute: async (meter) => {
        const now = deps.clock.now();
        const resolution = await resolveEntityFilters(deps.index, request.filters, caller.plan, now);
        let candidateBatches: number | undefined;
        const body = await listStories(
          deps,
          {
            keywords: request.keywords,
            ...(request.mode !== "keyword" && request.text !== undefined
              ? { meaning: { mode: request.mode, text: request.text } }
              : {}),
            filters: request.filters,
            ...(request.percentile ? { percentile: request.percentile } : {}),
            ...(request.check ? { check: request.check } : {}),
            sort: params.sort,
            offset: request.offset,
            limit: request.limit,
          },
          caller.plan,
          now,
          {
            articles: deps.index,
            onCandidateBatches: (batches) => (candidateBatches = batches),
          },
        );
        meter.took(chargeTaken(price, { resolution: resolutionTaken(resolution), candidateBatches }));
        return withResolved(body, resolution);
      },
    };
  },
});
