import { Type } from "@sinclair/typebox";
import { priceOf } from "../../domain/pricing.js";
import { Params } from "../../schemas/params.js";
import { StoryDetailSchema } from "../../schemas/responses.js";
import { parseWindow } from "../requests/search-params.js";
import { getStory } from "../../usecases/stories/get-story.js";
import { defineOperation } from "../operation.js";

const { Optional } = Type;

export const getStoryOperation = defineOperation({
  name: "getStory",
  tool: "get_story",
  method: "GET",
  path: "/stories/{id}",
  pathParams: ["id"],
  summary: "Expand one story",
  description:
    "One story across every outlet that reported it: its representative article, counts, sources, who reported first, and the newest member articles. To page or facet the members use /search?story_id=. 404 `not_found` only when every monthly index that could hold it says it is absent; 503 when one could not be read. 2 credits.",
  params: Type.Object({
    id: Params.story_key,
    limit: Optional(Params.expansion_limit),
    from: Optional(Params.from),
    to: Optional(Params.to),
  }),
  response: StoryDetailSchema,
  prepare(params, caller, deps) {
    const window = parseWindow(params.from, params.to);
    return {
      price: priceOf({ operation: "story" }),
      execute: () =>
        getStory(deps.stories, { id: params.id, ...window, limit: params.limit ?? 20 }, caller.plan, deps.clock.now()),
    };
  },
});
