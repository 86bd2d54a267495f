import { Type } from "@sinclair/typebox";
import { priceOf } from "../../../domain/pricing.js";
import { WatchParams } from "../../../schemas/params.js";
import { WatchDeletedSchema } from "../../../schemas/responses.js";
import { defineOperation } from "../../operation.js";
import { watchesOf } from "./watch-store-required.js";

export const deleteWatchOperation = defineOperation({
  name: "deleteWatch",
  tool: "delete_watch",
  method: "DELETE",
  path: "/watches/{id}",
  pathParams: ["id"],
  summary: "Delete a watch",
  description:
    "Removes the watch with its story state, events and pending deliveries; a run in progress does not bring it back. Deleting and creating again is how a watch is changed (the new one has no memory). 1 credit.",
  sideEffects: true,
  params: Type.Object({ id: WatchParams.watch_id }),
  response: WatchDeletedSchema,
  prepare(params, caller, deps) {
    const watches = watchesOf(deps);
    return { price: priceOf({ operation: "watch" }), execute: () => watches.remove(caller, params.id) };
  },
});
