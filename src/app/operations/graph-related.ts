import { Type } from "@sinclair/typebox";
import { priceOf } from "../../domain/pricing.js";
import { GRAPH_SCOPE, GraphParams } from "../../schemas/params.js";
import { RelatedResponseSchema } from "../../schemas/graph-responses.js";
import { relatedEntities } from "../../usecases/graph/graph-related.js";
import { edgeTypes, graphBase, oneEntity } from "../requests/graph-params.js";
import { runGraph } from "./graph-call.js";
import { defineOperation } from "../operation.js";

export const graphRelatedOperation = defineOperation({
  name: "graphRelated",
  tool: "related_entities",
  method: "GET",
  path: "/graph/related",
  pathParams: [],
  summary: "Entities co-mentioned with one entity",
  description:
    "The organizations, people, places and topics named in the same articles as one entity (`entity_id` from /entities), ranked together by co_mentions, with `share` over the entity's own articles and the newest shared articles as evidence for the strongest edges. Co-mention in reporting, not ownership, partnership or causation. `approximate` counts are upper bounds until evidence makes them exact. 1 credit per index query: 2 to 4, plus 2 per edge that gets evidence, at most 16.",
  params: Type.Object({
    entity_id: GraphParams.entity,
    types: Type.Optional(GraphParams.types),
    limit: Type.Optional(GraphParams.related_limit),
    evidence: Type.Optional(GraphParams.evidence),
    ...GRAPH_SCOPE,
  }),
  response: RelatedResponseSchema,
  prepare(params, caller, deps) {
    const request = {
      seed: oneEntity("entity_id", params.entity_id),
      types: edgeTypes(params.types),
      limit: params.limit ?? 20,
      evidence: params.evidence ?? 3,
    };
    const base = graphBase(params);
    return {
      price: priceOf({ operation: "graph_related", evidence: request.evidence }),
      execute: runGraph(base, caller, deps, async (scope) => ({ body: await relatedEntities(scope, request) })),
    };
  },
});
