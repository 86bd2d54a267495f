import { Type } from "@sinclair/typebox";
import { priceOf } from "../../domain/pricing.js";
import { GRAPH_SCOPE, GraphParams } from "../../schemas/params.js";
import { PathResponseSchema } from "../../schemas/graph-responses.js";
import { connectionPath } from "../../usecases/graph/graph-path.js";
import { graphBase, oneEntity } from "../requests/graph-params.js";
import { runGraph } from "./graph-call.js";
import { defineOperation } from "../operation.js";

export const graphPathOperation = defineOperation({
  name: "graphPath",
  tool: "connection_path",
  method: "GET",
  path: "/graph/path",
  pathParams: [],
  summary: "How two entities connect in the news",
  description:
    "`direct`: the articles naming both entities, counted exactly (`co_mentions: 0` means none in the window), with the newest as evidence. With `max_hops=2` (default), up to 5 `paths` through a named neighbour (organization, person or location) shared by each end's 50 strongest per type, ranked by `strength` (the weaker hop); each hop's evidence comes from articles that do not name the other end, so a path never rests on one article. With `max_hops=1`, `paths` is empty and `from.articles` is counted. Co-mention in reporting, not ownership, partnership or causation. 1 credit per index query: 3 to 8 with `max_hops=1`, 3 to 9 with `evidence=0`, up to 16 otherwise.",
  params: Type.Object({
    from_entity: GraphParams.entity,
    to_entity: GraphParams.entity,
    max_hops: Type.Optional(GraphParams.max_hops),
    evidence: Type.Optional(GraphParams.evidence),
    ...GRAPH_SCOPE,
  }),
  response: PathResponseSchema,
  prepare(params, caller, deps) {
    const request = {
      from: oneEntity("from_entity", params.from_entity),
      to: oneEntity("to_entity", params.to_entity),
      maxHops: (params.max_hops ?? 2) as 1 | 2,
      evidence: params.evidence ?? 3,
    };
    const base = graphBase(params);
    return {
      price: priceOf({ operation: "graph_path", maxHops: request.maxHops, evidence: request.evidence }),
      execute: runGraph(base, caller, deps, async (scope) => ({ body: await connectionPath(scope, request) })),
    };
  },
});
