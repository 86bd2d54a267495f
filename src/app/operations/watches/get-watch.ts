import { Type } from "@sinclair/typebox";
import { priceOf } from "../../../domain/pricing.js";
import { WatchParams } from "../../../schemas/params.js";
import { WatchSchema } from "../../../schemas/responses.js";
import { defineOperation } from "../../operation.js";
import { watchesOf } from "./watch-store-required.js";

export const getWatchOperation = defineOperation({
  name: "getWatch",
  tool: "get_watch",
  method: "GET",
  path: "/watches/{id}",
  pathParams: ["id"],
  summary: "One watch",
  description:
    "One watch without its secret: its query, status, last and next run, watermark and failure counters. Another account's watch is 404 `not_found`, the same as a missing one. 1 credit.",
  params: Type.Object({ id: WatchParams.watch_id }),
  response: WatchSchema,
  prepare(params, caller, deps) {
    const watches = watchesOf(deps);
    return { price: priceOf({ operation: "watch" }), execute: () => watches.get(caller, params.id) };
  },
});
