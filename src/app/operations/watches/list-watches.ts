import { Type } from "@sinclair/typebox";
import { priceOf } from "../../../domain/pricing.js";
import { WatchListSchema } from "../../../schemas/responses.js";
import { defineOperation } from "../../operation.js";
import { watchesOf } from "./watch-store-required.js";

export const listWatchesOperation = defineOperation({
  name: "listWatches",
  tool: "list_watches",
  method: "GET",
  path: "/watches",
  pathParams: [],
  summary: "The account's watches",
  description:
    "Every watch of the account, whichever key created it, oldest first, without secrets; `count` is how many the account keeps and `limit` the plan's cap. 1 credit.",
  params: Type.Object({}),
  response: WatchListSchema,
  prepare(_params, caller, deps) {
    const watches = watchesOf(deps);
    return { price: priceOf({ operation: "watch" }), execute: () => watches.list(caller) };
  },
});
