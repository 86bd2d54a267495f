import { Type } from "@sinclair/typebox";
import { priceOf } from "../../domain/pricing.js";
import { AccountSchema } from "../../schemas/responses.js";
import { defineOperation } from "../operation.js";

export const getAccountOperation = defineOperation({
  name: "getAccount",
  tool: "account_status",
  method: "GET",
  path: "/account",
  pathParams: [],
  summary: "Plan, credits and limits of the calling key's tenant",
  description:
    "The tenant's plan, per-minute and monthly credits, what is used and left, when the allocation renews, and how far back the plan reaches. Free (0 credits); it uses a message token. 401, 402 and 429 as usual.",
  free: true,
  params: Type.Object({}, { additionalProperties: false }),
  response: AccountSchema,
  prepare(_params, caller, deps) {
    return { price: priceOf({ operation: "free" }), execute: () => deps.credits.account(caller) };
  },
});
