import type { ArticleDetail } from "../../domain/article.js";
import type { EntityRef } from "../../domain/entities/entity-key.js";
import { PATH_NEIGHBOUR_TYPES } from "../../domain/graph.js";
import {
  EVIDENCE_QUERIES,
  compact,
  countNeighbours,
  edgeOf,
  gatherEvidence,
  graphEnvelope,
  indexedThrough,
  mentions,
  resolveSeed,
  seedBody,
  shareOf,
  summarisePair,
  topPerType,
  withEvidence,
  withSummary,
  type EdgeEvidence,
  type GraphScope,
  type Neighbour,
  type Neighbourhood,
  type ResolvedSeed,
} from "./graph-common.js";
import type { GraphEdge, GraphPath, PathResponse } from "../../schemas/graph-responses.js";

// GET /graph/path (spec 02, rules 1-5): how two entities connect.
//
// Queries: 1 for indexed_through, 1 or 2 per end to resolve it, 1 counting
// the articles naming both ends exactly (the direct edge, its newest articles,
// and, with two hops, which neighbours those articles name), 1 more for the
// direct edge's first/last seen, sources and stories when it has evidence.
// With max_hops=1, 1 counting the start's articles; with two, 1 per end
// counting its neighbours (its articles too). A neighbour shared by the
// strongest 50 per type of each end is a path when each hop has an article
// that does not name the other end: every path then chains two different
// articles and never shows both ends in one. 4 queries per path that gets
// evidence (2 per hop), while the 16-query cap affords them; the others keep
// their facet counts.

/** Neighbours taken per type of each end (spec rule 2). */
const NEIGHBOURS_PER_TYPE = 50;
/** Facet values read per type and end: deep enough to group spellings of the 50 strongest. */
const NEIGHBOUR_DEPTH = 200;
const MAX_PATHS = 5;
/** Articles read beyond the evidence on a hop, to make up for those naming the other end (dropped). */
const MAX_MARGIN = 200;

export interface PathRequest {
  from: { given: string; ref: EntityRef };
  to: { given: string; ref: EntityRef };
  maxHops: 1 | 2;
  evidence: number;
}

export async function connectionPath(scope: GraphScope, request: PathRequest): Promise<PathResponse> {
  const [indexed, from, to] = await Promise.all([
    indexedThrough(scope),
    resolveSeed(scope, request.from.given, request.from.ref),
    resolveSeed(scope, request.to.given, request.to.ref),
  ]);
  const envelope = () => graphEnvelope(scope, indexed);
  const direct = endEdge(to);
  if (from.aliases.length === 0 || to.aliases.length === 0) {
    // An end with no spelling in the window: no article names both, nothing connects through it there.
    const fromArticles = from.aliases.length === 0 ? 0 : request.maxHops === 1 ? await countArticles(scope, from) : undefined;
    return {
      from: seedBody(from, fromArticles),
      to: seedBody(to, request.maxHops === 2 && to.aliases.length === 0 ? 0 : undefined),
      direct,
      paths: [],
      ...envelope(),
    };
  }

  const types = request.maxHops === 2 ? PATH_NEIGHBOUR_TYPES : [];
  const [both, fromSide, toSide] = await Promise.all([
    countNeighbours(scope, [from.ref, to.ref], types, NEIGHBOUR_DEPTH, request.evidence),
    request.maxHops === 2 ? countNeighbours(scope, [from.ref], types, NEIGHBOUR_DEPTH) : countArticles(scope, from),
    request.maxHops === 2 ? countNeighbours(scope, [to.ref], types, NEIGHBOUR_DEPTH) : undefined,
  ]);
  const fromArticles = typeof fromSide === "number" ? fromSide : fromSide.articles;
  const directEdge = await directWithEvidence(scope, from, to, both, fromArticles, request.evidence);
  const paths =
    typeof fromSide === "number" || toSide === undefined
      ? []
      : await twoHopPaths(scope, { from, to, both, fromSide, toSide }, request.evidence);
  return {
    from: seedBody(from, fromArticles),
    to: seedBody(to, toSide?.articles),
    direct: directEdge,
    paths,
    ...envelope(),
  };
}

/** One query: the articles naming the seed (max_hops=1 rule: `from.articles` set with one more query). */
async function countArticles(scope: GraphScope, seed: ResolvedSeed): Promise<number> {
  return (await countNeighbours(scope, [seed.ref], [], 0)).articles;
}

/** An edge reaching an end of the path, before counting. */
function endEdge(end: ResolvedSeed): GraphEdge {
  return {
    entity_id: end.ref.id,
    type: end.ref.type as GraphEdge["type"],
    label: end.aliases[0] ?? end.ref.key,
    aliases: end.aliases,
    co_mentions: 0,
    share: 0,
    evidence: [],
    approximate: false,
  };
}

/** The direct edge, counted exactly; its first/last seen, sources and stories with one more query when it has evidence. */
async function directWithEvidence(
  scope: GraphScope,
  from: ResolvedSeed,
  to: ResolvedSeed,
  both: Neighbourhood,
  fromArticles: number,
  evidence: number,
): Promise<GraphEdge> {
  const edge: GraphEdge = {
    ...endEdge(to),
    co_mentions: both.articles,
    share: shareOf(both.articles, fromArticles),
    evidence: both.newest.slice(0, evidence).map(compact),
  };
  if (evidence === 0 || both.articles === 0 || !scope.ledger.claim(1)) return edge;
  return withSummary(edge, await summarisePair(scope, [from.ref, to.ref]));
}

interface Ends {
  from: ResolvedSeed;
  to: ResolvedSeed;
  /** The articles naming both ends, with the neighbours they name. */
  both: Neighbourhood;
  fromSide: Neighbourhood;
  toSide: Neighbourhood;
}

interface Candidate {
  via: Neighbour;
  /** The hops as counted from facets. */
  first: GraphEdge;
  second: GraphEdge;
  /** Articles naming both ends and the neighbour: on neither hop can they stand for the path. */
  inBoth: number;
  strength: number;
}

/** Up to 5 paths through a neighbour shared by each end's strongest 50 per type, strongest first (rules 2 and 3). */
async function twoHopPaths(scope: GraphScope, ends: Ends, evidence: number): Promise<GraphPath[]> {
  const theirs = new Set(topPerType(ends.toSide.neighbours.values(), NEIGHBOURS_PER_TYPE).map((n) => n.ref.id));
  const candidates: Candidate[] = [];
  for (const via of topPerType(ends.fromSide.neighbours.values(), NEIGHBOURS_PER_TYPE)) {
    const other = ends.toSide.neighbours.get(via.ref.id);
    if (via.ref.id === ends.to.ref.id || other === undefined || !theirs.has(via.ref.id)) continue;
    const inBoth = ends.both.neighbours.get(via.ref.id)?.count ?? 0;
    // Each hop needs an article without the other end: counts at or below the articles naming all three have none.
    if (via.count <= inBoth || other.count <= inBoth) continue;
    const first = edgeOf(via, ends.fromSide.articles);
    const second: GraphEdge = {
      ...endEdge(ends.to),
      co_mentions: other.count,
      share: shareOf(other.count, ends.toSide.articles),
      approximate: other.approximate,
    };
    candidates.push({ via, first, second, inBoth, strength: Math.min(via.count, other.count) });
  }
  candidates.sort((a, b) => b.strength - a.strength || (a.via.ref.id < b.via.ref.id ? -1 : 1));

  const paths: GraphPath[] = [];
  let next = 0;
  while (paths.length < MAX_PATHS && next < candidates.length) {
    const round = candidates.slice(next, next + MAX_PATHS - paths.length);
    next += round.length;
    const made = await Promise.all(
      round.map((c) =>
        evidence > 0 && scope.ledger.claim(2 * EVIDENCE_QUERIES) ? withHopEvidence(scope, ends, c, evidence) : c,
      ),
    );
    for (const c of made)
      if (c !== undefined)
        paths.push({ hops: [ends.from.ref.id, c.via.ref.id, ends.to.ref.id], edges: [c.first, c.second], strength: c.strength });
  }
  return paths.sort((a, b) => b.strength - a.strength || (a.hops[1] as string).localeCompare(b.hops[1] as string));
}

/**
 * Evidence on both hops, each from articles that do not name the other end
 * (so the two hops never share an article); undefined when a hop has none:
 * then the neighbour connects the ends only inside articles naming both, which
 * is not a path. A hop whose shared articles outnumber those read (more than
 * MAX_MARGIN also name the other end) and whose exact count still exceeds the
 * articles naming all three keeps the path, its evidence possibly short.
 */
async function withHopEvidence(scope: GraphScope, ends: Ends, c: Candidate, evidence: number): Promise<Candidate | undefined> {
  const margin = Math.min(c.inBoth, MAX_MARGIN);
  const naming = (end: ResolvedSeed) => (article: ArticleDetail) => mentions(article, end.ref);
  const [first, second] = await Promise.all([
    gatherEvidence(scope, [ends.from.ref, c.via.ref], evidence, { excluding: naming(ends.to), margin }),
    gatherEvidence(scope, [c.via.ref, ends.to.ref], evidence, { excluding: naming(ends.from), margin }),
  ]);
  const read = evidence + margin;
  const none = (hop: EdgeEvidence) => hop.evidence.length === 0 && (hop.co_mentions <= read || hop.co_mentions <= c.inBoth);
  if (none(first) || none(second)) return undefined;
  return {
    ...c,
    first: withEvidence(c.first, first, ends.fromSide.articles),
    second: withEvidence(c.second, second, ends.toSide.articles),
    strength: Math.min(first.co_mentions, second.co_mentions),
  };
}
