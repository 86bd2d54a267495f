import type { EntityRef } from "../../domain/entities/entity-key.js";
import type { EdgeType } from "../../domain/graph.js";
import {
  affordEvidence,
  byStrength,
  countNeighbours,
  edgeOf,
  gatherEvidence,
  graphEnvelope,
  indexedThrough,
  resolveSeed,
  seedBody,
  withEvidence,
  type GraphScope,
} from "./graph-common.js";
import type { RelatedResponse } from "../../schemas/graph-responses.js";

// GET /graph/related (spec 02): the entities co-mentioned with one entity.
//
// 1 query for indexed_through, 1 or 2 to resolve the id, 1 counting the
// neighbours over every article mentioning it (facets on the requested types,
// spellings grouped by er-v1 key), and 2 per edge that gets evidence: the
// `evidence` strongest edges, as long as the 16-query cap affords them; an
// edge it cannot afford keeps its count and goes without.

export interface RelatedRequest {
  seed: { given: string; ref: EntityRef };
  types: EdgeType[];
  limit: number;
  evidence: number;
}

/** Facet values read per type: deep enough that a group's spellings are counted together, whatever the limit. */
export function neighbourDepth(wanted: number): number {
  return Math.max(100, wanted * 4);
}

export async function relatedEntities(scope: GraphScope, request: RelatedRequest): Promise<RelatedResponse> {
  const [indexed, seed] = await Promise.all([indexedThrough(scope), resolveSeed(scope, request.seed.given, request.seed.ref)]);
  if (seed.aliases.length === 0) {
    // No spelling in the window: nothing to connect to there (not evidence it has no connections).
    return { seed: seedBody(seed), related: [], ...graphEnvelope(scope, indexed) };
  }
  const around = await countNeighbours(scope, [seed.ref], request.types, neighbourDepth(request.limit));
  const strongest = [...around.neighbours.values()]
    .map((neighbour) => ({ neighbour, edge: edgeOf(neighbour, around.articles) }))
    .sort((a, b) => byStrength(a.edge, b.edge))
    .slice(0, request.limit);
  const related = await Promise.all(
    strongest.map(async ({ neighbour, edge }, rank) => {
      if (rank >= request.evidence || !affordEvidence(scope)) return edge;
      return withEvidence(edge, await gatherEvidence(scope, [seed.ref, neighbour.ref], request.evidence), around.articles);
    }),
  );
  return { seed: seedBody(seed, around.articles), related: related.sort(byStrength), ...graphEnvelope(scope, indexed) };
}
