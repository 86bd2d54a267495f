import { Type } from "@sinclair/typebox";
import { chargeTaken } from "../../domain/billing/charge.js";
import { priceOf } from "../../domain/pricing.js";
import { Params, WINDOW } from "../../schemas/params.js";
import { EntitiesResponseSchema } from "../../schemas/entity-responses.js";
import { nameKeyOf, resolveEntity } from "../../usecases/entities/resolve-entity.js";
import { parseWindow } from "../requests/search-params.js";
import { defineOperation } from "../operation.js";

export const resolveEntityOperation = defineOperation({
  name: "resolveEntity",
  tool: "resolve_entity",
  method: "GET",
  path: "/entities",
  pathParams: [],
  summary: "Resolve a name to entity groups",
  description:
    "The spellings the index holds for a name, grouped under stable entity ids (`<type>:<key>`, er-v1) to pass as `entity_id`. Spellings sharing a key (accents, case, punctuation, a leading 'the', corporate suffixes for organizations, honorifics for people) form one group; `aliases` say how each matches the name: `exact` (confidence 1.0), `prefix` on word boundaries (0.8: `biden` finds `joe biden`), `acronym` (0.6), looked for only when nothing contains the name. Counts are within `from`/`to`. An empty list means no such spelling in the window, not that the entity is absent from the news. 1 credit, 2 when the acronym pass runs.",
  params: Type.Object({
    q: Params.entity_name,
    type: Params.entity_type,
    limit: Type.Optional(Params.limit),
    ...WINDOW,
  }),
  response: EntitiesResponseSchema,
  prepare(params, caller, deps) {
    const request = { q: params.q, type: params.type, limit: params.limit ?? 10, ...parseWindow(params.from, params.to) };
    nameKeyOf(request);
    const price = priceOf({ operation: "entities" });
    return {
      price,
      execute: async (meter) => {
        const outcome = await resolveEntity(deps.index, request, caller.plan, deps.clock.now());
        meter.took(chargeTaken(price, { passes: outcome.passes }));
        return outcome.body;
      },
    };
  },
});
