import { Type } from "@sinclair/typebox";
import { priceOf } from "../../domain/pricing.js";
import { GRAPH_SCOPE, GraphParams, Params } from "../../schemas/params.js";
import { ExposuresResponseSchema } from "../../schemas/graph-responses.js";
import { sharedExposures } from "../../usecases/graph/graph-exposures.js";
import { graphBase, someEntities } from "../requests/graph-params.js";
import { facetFields } from "../requests/search-params.js";
import { runGraph } from "./graph-call.js";
import { defineOperation } from "../operation.js";

export const graphExposuresOperation = defineOperation({
  name: "graphExposures",
  tool: "shared_exposures",
  method: "GET",
  path: "/graph/exposures",
  pathParams: [],
  summary: "What several entities have in common",
  description:
    "For 2 to 5 entity ids (`entity_id`, comma-separated or repeated): the articles naming all of them (`shared.articles`, exact), their distinct stories and publishers, first and last seen, value counts over them (`facets`, as on /search) and the newest of them as `evidence`. `signal_stats`: per signal, its mean intensity over the shared articles carrying it and how many carry it. Co-mention in reporting, not ownership, partnership, causation or exposure in any financial sense. 1 credit per index query: 1, plus 1 or 2 per id, plus 2 for the shared articles; at most 13.",
  params: Type.Object({
    entity_id: GraphParams.exposures_entity_id,
    evidence: Type.Optional(GraphParams.evidence),
    facets: Type.Optional(Params.facets),
    facet_limit: Type.Optional(Params.facet_limit),
    ...GRAPH_SCOPE,
  }),
  response: ExposuresResponseSchema,
  prepare(params, caller, deps) {
    const request = {
      entities: someEntities(params.entity_id, 2),
      evidence: params.evidence ?? 3,
      ...(params.facets === undefined ? {} : { facets: { fields: facetFields(params.facets), limit: params.facet_limit ?? 10 } }),
    };
    const base = graphBase(params);
    return {
      price: priceOf({ operation: "graph_exposures", entities: request.entities.length }),
      execute: runGraph(base, caller, deps, async (scope) => ({ body: await sharedExposures(scope, request) })),
    };
  },
});
