import { Type } from "@sinclair/typebox";
import { priceOf } from "../../../domain/pricing.js";
import { WatchParams } from "../../../schemas/params.js";
import { WatchEventsSchema } from "../../../schemas/responses.js";
import { defineOperation } from "../../operation.js";
import { watchesOf } from "./watch-store-required.js";

const { Optional } = Type;

export const watchEventsOperation = defineOperation({
  name: "watchEvents",
  tool: "watch_events",
  method: "GET",
  path: "/watches/{id}/events",
  pathParams: ["id"],
  summary: "A watch's events, newest first",
  description:
    "The events the watch recorded in the last seven days, newest first, in `events`; each carries the story's counts (growth events `previous_outlets` and `current_outlets`) and its webhook `delivery_status`. Page with `after` set to the previous `next_after` (null at the oldest kept event). To pick up new events read from the top until an id already handled; do not order by `occurred_at`. 1 credit.",
  params: Type.Object({
    id: WatchParams.watch_id,
    after: Optional(WatchParams.events_after),
    limit: Optional(WatchParams.events_limit),
  }),
  response: WatchEventsSchema,
  prepare(params, caller, deps) {
    const watches = watchesOf(deps);
    return {
      price: priceOf({ operation: "watch" }),
      execute: () => watches.events(caller, params.id, params.after, params.limit ?? 20),
    };
  },
});
