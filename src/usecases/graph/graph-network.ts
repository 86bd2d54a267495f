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
  shareOf,
  topPerType,
  withEvidence,
  type GraphScope,
  type Neighbour,
  type Neighbourhood,
} from "./graph-common.js";
import type {
  GraphEdge,
  GraphEnvelope,
  GraphSeed,
  NetworkChange,
  NetworkComparison,
  NetworkResponse,
} from "../../schemas/graph-responses.js";

// GET /graph/network (spec 02): one entity's neighbours grouped by type, at
// most 20 per type, and with a compared window, how that neighbourhood
// changed. The spec leaves parameters and fields beyond these to us:
//
// - `limit_per_type` (1-20, default 10) neighbours listed per requested type;
//   `evidence` (default 0) of the strongest across types get evidence, as on
//   /graph/related (2 queries each, within the 16-query cap).
// - `compare_from`/`compare_to`: a second pass over that window (its id
//   lookup and its neighbour count), a flat 3 credits. `new`: listed now, not
//   counted in the compared window; `gone`: listed in the compared window, not
//   counted now; `grew`/`fell`: counted in both, share up by half or more
//   (x1.5), or down by a third or more (x2/3). Shares are over the entity's own
//   articles in each window, so a tie can grow while the entity is reported
//   less. "Counted" means among the 200 strongest per type a window's facets read.

/** Facet values read per type: the listed 20 at most, with their spellings, and a wide net for comparisons. */
const NETWORK_DEPTH = 200;
export const GREW_BY = 1.5;
export const FELL_TO = 2 / 3;

export interface NetworkRequest {
  seed: { given: string; ref: EntityRef };
  types: EdgeType[];
  perType: number;
  evidence: number;
}

interface Pass {
  seed: GraphSeed;
  around: Neighbourhood | undefined;
}

/** One window's lookup and neighbour count (none when the id has no spelling there). */
async function pass(scope: GraphScope, request: NetworkRequest): Promise<Pass> {
  const seed = await resolveSeed(scope, request.seed.given, request.seed.ref);
  if (seed.aliases.length === 0) return { seed: seedBody(seed), around: undefined };
  const around = await countNeighbours(scope, [seed.ref], request.types, NETWORK_DEPTH);
  return { seed: seedBody(seed, around.articles), around };
}

export async function entityNetwork(scope: GraphScope, request: NetworkRequest, compared?: GraphScope): Promise<NetworkResponse> {
  const [indexed, now, before] = await Promise.all([
    indexedThrough(scope),
    pass(scope, request),
    compared ? pass(compared, request) : undefined,
  ]);
  const listed = now.around ? topPerType(now.around.neighbours.values(), request.perType) : [];
  const articles = now.around?.articles ?? 0;
  const strongest = listed
    .map((neighbour) => ({ neighbour, edge: edgeOf(neighbour, articles) }))
    .sort((a, b) => byStrength(a.edge, b.edge));
  const edges = await Promise.all(
    strongest.map(async ({ neighbour, edge }, rank) => {
      if (rank >= request.evidence || !affordEvidence(scope)) return edge;
      return withEvidence(edge, await gatherEvidence(scope, [request.seed.ref, neighbour.ref], request.evidence), articles);
    }),
  );
  const neighbors: Partial<Record<EdgeType, GraphEdge[]>> = {};
  for (const type of request.types) neighbors[type] = edges.filter((e) => e.type === type).sort(byStrength);

  const envelope = graphEnvelope(scope, indexed);
  return {
    seed: now.seed,
    types: request.types,
    neighbors,
    ...(compared && before ? { comparison: compare(now, before, listed, request.perType, compared) } : {}),
    ...(compared ? withCompletenessOf(envelope, compared) : envelope),
  };
}

/** The main window's envelope, made partial when the compared window's pass could not read everything. */
function withCompletenessOf<T extends { partial: boolean; coverage: GraphEnvelope["coverage"] }>(
  envelope: T,
  compared: GraphScope,
): T {
  const other = compared.ledger.completeness(compared.window.to);
  if (envelope.partial || !other.partial) return envelope;
  return { ...envelope, partial: true, coverage: other.coverage };
}

function compare(
  now: Pass,
  before: Pass,
  listed: readonly Neighbour[],
  perType: number,
  compared: GraphScope,
): NetworkComparison {
  const nowArticles = now.around?.articles ?? 0;
  const beforeArticles = before.around?.articles ?? 0;
  const change = (current: Neighbour | undefined, previous: Neighbour | undefined): NetworkChange => {
    const shown = (current ?? previous) as Neighbour;
    const edge = edgeOf(shown, 0);
    const co = current?.count ?? 0;
    const previousCo = previous?.count ?? 0;
    return {
      entity_id: edge.entity_id,
      type: shown.ref.type,
      label: edge.label,
      co_mentions: co,
      share: shareOf(co, nowArticles),
      previous_co_mentions: previousCo,
      previous_share: shareOf(previousCo, beforeArticles),
      approximate: (current?.approximate ?? false) || (previous?.approximate ?? false),
    };
  };
  const out: NetworkComparison = {
    from: compared.window.from ?? null,
    to: compared.window.to ?? null,
    from_clamped: compared.window.from_clamped,
    seed: before.seed,
    new: [],
    gone: [],
    grew: [],
    fell: [],
  };
  for (const current of listed) {
    const previous = before.around?.neighbours.get(current.ref.id);
    const item = change(current, previous);
    if (previous === undefined) out.new.push(item);
    else if (item.previous_share > 0 && item.share >= item.previous_share * GREW_BY) out.grew.push(item);
    else if (item.share <= item.previous_share * FELL_TO) out.fell.push(item);
  }
  const previouslyListed = before.around ? topPerType(before.around.neighbours.values(), perType) : [];
  for (const previous of previouslyListed) {
    if (now.around?.neighbours.has(previous.ref.id)) continue;
    out.gone.push(change(undefined, previous));
  }
  for (const list of [out.new, out.gone, out.grew, out.fell]) list.sort(byChange);
  return out;
}

/** The largest change first: by the larger of the two counts, then id. */
function byChange(a: NetworkChange, b: NetworkChange): number {
  const size = (c: NetworkChange) => Math.max(c.co_mentions, c.previous_co_mentions);
  return size(b) - size(a) || (a.entity_id < b.entity_id ? -1 : 1);
}
