import { toArticle, toCompactArticle, type ArticleDetail, type CompactArticle } from "../../domain/article.js";
import { ATTRIBUTION } from "../../domain/attribution.js";
import {
  ENTITY_RESOLUTION_VERSION,
  ENTITY_TYPE_FIELDS,
  entityIdOf,
  entityKey,
  type EntityRef,
} from "../../domain/entities/entity-key.js";
import { FILTER_FIELDS } from "../../domain/filter-fields.js";
import { ASSOCIATION_NOTE, type EdgeType } from "../../domain/graph.js";
import type { ArticleFilters, EntityFilter } from "../../domain/search-query.js";
import { SIGNAL_NAMES } from "../../domain/vocabularies/signals-v1.js";
import type { AggregateRow } from "../../ports/article-search.js";
import type { IndexBackend } from "../../ports/index-backend.js";
import { entityAliases } from "../entities/entity-aliases.js";
import type { Window } from "../query-kernel/plan-window.js";
import { QUERY_BUDGET_MS } from "../query-kernel/query-budget.js";
import type { QueryLedger } from "./query-ledger.js";
import type { GraphEdge, GraphEnvelope, GraphSeed } from "../../schemas/graph-responses.js";

// What the four graph endpoints share (spec 02: Graph seed, Graph edge, the
// fields on every graph response, Graph credits): a scope (the index, the
// window as the plan clamps it, the narrowing filters and the query ledger),
// and the index queries every graph answer is made of. Counts come from the
// index at query time; nothing is kept between calls.

/** The filters that narrow graph counts, not the id lookup (spec "GET /graph/related"). */
export type NarrowingFilters = Pick<ArticleFilters, "language" | "publisher_country" | "source_type" | "country">;

export interface GraphScope {
  index: IndexBackend;
  window: Window;
  narrowing: NarrowingFilters;
  ledger: QueryLedger;
}

/** A seed resolved in the scope's window: the id as passed, its group and its spellings there. */
export interface ResolvedSeed {
  given: string;
  ref: EntityRef;
  aliases: string[];
}

export function filterOf(ref: Pick<EntityRef, "type" | "key">): EntityFilter {
  return { type: ref.type, key: ref.key };
}

/** The narrowing filters and the window, with `entities` ANDed. */
export function scopedFilters(scope: GraphScope, entities: EntityFilter[]): ArticleFilters {
  const filters: ArticleFilters = { ...scope.narrowing, entities };
  if (scope.window.from !== undefined) filters.from = scope.window.from;
  if (scope.window.to !== undefined) filters.to = scope.window.to;
  return filters;
}

/** One query: the newest article the index holds in the window (null when it holds none). */
export async function indexedThrough(scope: GraphScope): Promise<string | null> {
  const filters: ArticleFilters = {};
  if (scope.window.from !== undefined) filters.from = scope.window.from;
  if (scope.window.to !== undefined) filters.to = scope.window.to;
  const result = await scope.index.search({ filters, offset: 0, limit: 1, budgetMs: QUERY_BUDGET_MS });
  scope.ledger.record(1, result);
  return result.hits[0]?.article.published_at ?? null;
}

/** One or two queries: the id's spellings in the window (spec: the lookup is not narrowed). */
export async function resolveSeed(scope: GraphScope, given: string, ref: EntityRef): Promise<ResolvedSeed> {
  // Counted, so the spellings come most frequent first (the label of an edge reaching it).
  const found = await entityAliases(scope.index, ref, scope.window);
  scope.ledger.record(found.credits, found);
  return { given, ref, aliases: found.aliases.map((a) => a.value) };
}

export function seedBody(seed: ResolvedSeed, articles?: number): GraphSeed {
  return {
    entity_id: seed.given,
    type: seed.ref.type,
    aliases_used: seed.aliases,
    ...(articles === undefined ? {} : { articles }),
  };
}

/** A neighbour as counted from facets: its spellings grouped by er-v1 key. */
export interface Neighbour {
  ref: EntityRef & { type: EdgeType };
  /** Spellings with their counts, most frequent first. */
  spellings: Array<{ value: string; count: number }>;
  /** The sum of its spellings' counts: exact unless `approximate`. */
  count: number;
  approximate: boolean;
}

export interface Neighbourhood {
  /** Articles matching the entities (and the narrowing filters) in the window: exact. */
  articles: number;
  /** By entity id, the entities themselves left out. */
  neighbours: Map<string, Neighbour>;
  /** The newest matching articles, as many as asked for. */
  newest: ArticleDetail[];
}

/**
 * One query: the articles mentioning every entity of `entities`, with the
 * values of the fields of `types` counted over all of them (facets `depth`
 * deep), grouped by er-v1 key. A group's count is the sum of its spellings'
 * counts: `approximate` (an upper bound, spec "Graph edge") when several
 * spellings were summed (one article can carry two), when the facet was cut
 * short in some monthly index, or when several monthly indexes were summed.
 * `newest` also returns that many of the matching articles, newest first.
 */
export async function countNeighbours(
  scope: GraphScope,
  entities: readonly EntityRef[],
  types: readonly EdgeType[],
  depth: number,
  newest = 0,
): Promise<Neighbourhood> {
  const result = await scope.index.search({
    filters: scopedFilters(scope, entities.map(filterOf)),
    offset: 0,
    limit: newest,
    ...(types.length > 0 ? { facets: { fields: types.map((t) => ENTITY_TYPE_FIELDS[t]), limit: depth } } : {}),
    budgetMs: QUERY_BUDGET_MS,
  });
  scope.ledger.record(1, result);
  const severalIndexes = result.partitionsRead.length > 1;
  const excluded = new Set(entities.map((e) => e.id));
  const neighbours = new Map<string, Neighbour>();
  for (const type of types) {
    const facet = result.facets?.[ENTITY_TYPE_FIELDS[type]];
    for (const { value, count } of facet?.values ?? []) {
      const key = entityKey(type, value);
      if (key === "") continue;
      const id = entityIdOf(type, key);
      if (excluded.has(id)) continue;
      let neighbour = neighbours.get(id);
      if (!neighbour) {
        neighbour = {
          ref: { type, key, id },
          spellings: [],
          count: 0,
          approximate: severalIndexes || facet?.approximate === true,
        };
        neighbours.set(id, neighbour);
      }
      neighbour.spellings.push({ value, count });
      neighbour.count += count;
      if (neighbour.spellings.length > 1) neighbour.approximate = true;
    }
  }
  return { articles: result.total, neighbours, newest: result.hits.map((hit) => hit.article) };
}

/** The strongest first; ties by id, so an answer keeps one order. */
export function byStrength<T extends { co_mentions: number; entity_id: string }>(a: T, b: T): number {
  return b.co_mentions - a.co_mentions || (a.entity_id < b.entity_id ? -1 : a.entity_id > b.entity_id ? 1 : 0);
}

/** The top `perType` neighbours of each type, strongest first. */
export function topPerType(neighbours: Iterable<Neighbour>, perType: number): Neighbour[] {
  const byType = new Map<EdgeType, Neighbour[]>();
  for (const n of neighbours) {
    let list = byType.get(n.ref.type);
    if (!list) byType.set(n.ref.type, (list = []));
    list.push(n);
  }
  return [...byType.values()].flatMap((list) =>
    list.sort((a, b) => b.count - a.count || (a.ref.id < b.ref.id ? -1 : 1)).slice(0, perType),
  );
}

export function shareOf(coMentions: number, articles: number): number {
  return articles > 0 ? Math.round((coMentions / articles) * 1000) / 1000 : 0;
}

/** An edge from facet counts, without evidence. */
export function edgeOf(neighbour: Neighbour, seenFromArticles: number): GraphEdge {
  const spellings = [...neighbour.spellings].sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
  return {
    entity_id: neighbour.ref.id,
    type: neighbour.ref.type,
    label: spellings[0]?.value ?? neighbour.ref.key,
    aliases: spellings.map((s) => s.value),
    co_mentions: neighbour.count,
    share: shareOf(neighbour.count, seenFromArticles),
    evidence: [],
    approximate: neighbour.approximate,
  };
}

/** What one pass over the articles mentioning a pair says of them (an edge's fields "when evidence was gathered"). */
export interface PairSummary {
  first_seen?: string;
  last_seen?: string;
  /** Distinct publishers (an estimate when `summed`). */
  sources: number;
  /** Distinct clustered stories (an estimate when `summed`). */
  stories: number;
  /** True when the distinct counts are estimates (the index summed several indexes' counts, or used a sketch). */
  summed: boolean;
  /** With `signals`: each signal carried by an article, its mean and how many carry it (exact across indexes). */
  signals?: AggregateRow["signals"];
}

/** What two queries about the articles mentioning a pair give an edge. */
export interface EdgeEvidence extends PairSummary {
  /** Exact. */
  co_mentions: number;
  /** Newest first, at most the number asked for. */
  evidence: CompactArticle[];
}

/**
 * One query, claimed beforehand: the first and last publication, distinct
 * publishers and distinct stories of the articles mentioning every entity of
 * `pair` (one grouped pass; distinct counts may be estimates, and `summed` says so).
 */
export async function summarisePair(
  scope: GraphScope,
  pair: readonly EntityRef[],
  options: { signals?: boolean } = {},
): Promise<PairSummary> {
  const summary = await scope.index.aggregate({
    filters: scopedFilters(scope, pair.map(filterOf)),
    interval: "all",
    metrics: { stories: true, outlets: true },
    // The percentile is not reported; the pass needs one.
    ...(options.signals ? { signals: { names: SIGNAL_NAMES, percentile: 50 } } : {}),
    budgetMs: QUERY_BUDGET_MS,
  });
  scope.ledger.note(summary);
  const row = summary.rows[0];
  return {
    summed: row?.approximate ?? false,
    ...(row?.first ? { first_seen: row.first } : {}),
    ...(row?.last ? { last_seen: row.last } : {}),
    sources: row?.outlets ?? 0,
    stories: row?.stories ?? 0,
    ...(options.signals ? { signals: row?.signals ?? {} } : {}),
  };
}

/** Queries an edge's evidence takes (spec: "two for each edge that gets evidence"). */
export const EVIDENCE_QUERIES = 2;

/** Claims an edge's evidence queries from the ledger: false when the 16-query cap cannot afford them. */
export function affordEvidence(scope: GraphScope): boolean {
  return scope.ledger.claim(EVIDENCE_QUERIES);
}

/**
 * Two queries, claimed beforehand with `affordEvidence`: the articles
 * mentioning every entity of `pair` counted exactly with the newest of them,
 * and their summary (`summarisePair`). `excluding` drops evidence articles a
 * path must not show (both of its ends in one article); `margin` reads that
 * many more so the evidence is still full after dropping.
 */
export async function gatherEvidence(
  scope: GraphScope,
  pair: readonly EntityRef[],
  articles: number,
  options: { excluding?: (article: ArticleDetail) => boolean; margin?: number } = {},
): Promise<EdgeEvidence> {
  const filters = scopedFilters(scope, pair.map(filterOf));
  const [found, summary] = await Promise.all([
    scope.index.search({ filters, offset: 0, limit: articles + (options.margin ?? 0), budgetMs: QUERY_BUDGET_MS }),
    summarisePair(scope, pair),
  ]);
  scope.ledger.note(found);
  const kept = found.hits.filter((hit) => !(options.excluding?.(hit.article) ?? false)).slice(0, articles);
  return { co_mentions: found.total, evidence: kept.map((hit) => compact(hit.article)), ...summary };
}

export function compact(article: ArticleDetail): CompactArticle {
  return toCompactArticle(toArticle(article));
}

/** An edge with its evidence: the count made exact. */
export function withEvidence(edge: GraphEdge, found: EdgeEvidence, seenFromArticles: number): GraphEdge {
  const { co_mentions, evidence, ...summary } = found;
  return withSummary(
    { ...edge, co_mentions, share: shareOf(co_mentions, seenFromArticles), evidence, approximate: false },
    summary,
  );
}

/** The fields an edge carries when evidence was gathered, in the spec's order (before `approximate`). */
export function withSummary(edge: GraphEdge, summary: PairSummary): GraphEdge {
  const { approximate, ...rest } = edge;
  const { summed: _summed, ...fields } = summary;
  return { ...rest, ...fields, approximate };
}

/** True when the article carries a spelling of the entity's group. */
export function mentions(article: ArticleDetail, ref: Pick<EntityRef, "type" | "key">): boolean {
  return FILTER_FIELDS[ENTITY_TYPE_FIELDS[ref.type]].values(article).some((value) => entityKey(ref.type, value) === ref.key);
}

export function graphEnvelope(scope: GraphScope, indexed: string | null): GraphEnvelope {
  const { partial, coverage } = scope.ledger.completeness(scope.window.to);
  return {
    note: ASSOCIATION_NOTE,
    indexed_through: indexed,
    entity_resolution_version: ENTITY_RESOLUTION_VERSION,
    partial,
    coverage,
    history_days: scope.window.history_days,
    from_clamped: scope.window.from_clamped,
    attribution: ATTRIBUTION,
  };
}
