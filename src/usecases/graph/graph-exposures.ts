import type { EntityRef } from "../../domain/entities/entity-key.js";
import type { Facet } from "../../domain/facets.js";
import type { FilterField } from "../../domain/filter-fields.js";
import type { FacetRequest } from "../../domain/search-query.js";
import { reportedMean } from "../aggregate/signal-metrics.js";
import { QUERY_BUDGET_MS } from "../query-kernel/query-budget.js";
import {
  compact,
  filterOf,
  graphEnvelope,
  indexedThrough,
  resolveSeed,
  scopedFilters,
  seedBody,
  summarisePair,
  type GraphScope,
  type PairSummary,
} from "./graph-common.js";
import type { ExposuresResponse, SharedExposure } from "../../schemas/graph-responses.js";

// GET /graph/exposures (spec 02): what 2 to 5 entities have in common in the
// window. The spec leaves parameters and fields to us:
//
// - `entity_id` (2 to 5, comma-separated or repeated as on /search), `evidence`
//   (0-10, default 3: the newest shared articles), `facets`/`facet_limit` (as
//   on /search, counted over the shared articles), the window and the
//   narrowing filters.
// - `shared`: the articles naming every entity (exact), their distinct
//   stories and publishers, first and last seen; `facets`; `evidence`.
// - `signal_stats`: per signal (signals-v1), its mean intensity over the
//   shared articles carrying it and how many carry it, from the same pass as
//   their stories and publishers; a signal no shared article carries is
//   left out. A monthly index built before signals-v1 cannot give them: the
//   answer is then partial, coverage `field_unavailable` (as on /aggregate).
//
// Queries: 1 for indexed_through, 1 or 2 per id, then 1 for the shared
// articles (count, evidence, facets) and 1 for their stories and sources;
// none of the last two when an id has no spelling in the window.

export interface ExposuresRequest {
  entities: Array<{ given: string; ref: EntityRef }>;
  evidence: number;
  facets?: FacetRequest;
}

export async function sharedExposures(scope: GraphScope, request: ExposuresRequest): Promise<ExposuresResponse> {
  const [indexed, seeds] = await Promise.all([
    indexedThrough(scope),
    Promise.all(request.entities.map((e) => resolveSeed(scope, e.given, e.ref))),
  ]);
  const entities = seeds.map((seed) => seedBody(seed));
  const refs = seeds.map((seed) => seed.ref);
  if (seeds.some((seed) => seed.aliases.length === 0)) {
    // An id with no spelling in the window: no article there names them all.
    const none: SharedExposure = { articles: 0, stories: 0, sources: 0, approximate: false };
    return {
      entities,
      shared: none,
      ...emptyFacets(request.facets),
      evidence: [],
      ...graphEnvelope(scope, indexed),
    };
  }
  const [found, summary] = await Promise.all([
    scope.index.search({
      filters: scopedFilters(scope, refs.map(filterOf)),
      offset: 0,
      limit: request.evidence,
      ...(request.facets ? { facets: request.facets } : {}),
      budgetMs: QUERY_BUDGET_MS,
    }),
    scope.ledger.claim(1) ? summarisePair(scope, refs, { signals: true }) : undefined,
  ]);
  scope.ledger.record(1, found);
  return {
    entities,
    shared: sharedOf(found.total, summary),
    ...(found.facets ? { facets: found.facets } : {}),
    ...(summary?.signals ? { signal_stats: signalStats(summary.signals) } : {}),
    evidence: found.hits.map((hit) => compact(hit.article)),
    ...graphEnvelope(scope, indexed),
  };
}

function sharedOf(articles: number, summary: PairSummary | undefined): SharedExposure {
  return {
    articles,
    stories: summary?.stories ?? 0,
    sources: summary?.sources ?? 0,
    ...(summary?.first_seen ? { first_seen: summary.first_seen } : {}),
    ...(summary?.last_seen ? { last_seen: summary.last_seen } : {}),
    approximate: summary?.summed ?? false,
  };
}

/** Requested facets over no article: every field present, empty. */
function emptyFacets(request: FacetRequest | undefined): { facets?: Partial<Record<FilterField, Facet>> } {
  if (!request) return {};
  const empty: Facet = { values: [], sum_other_doc_count: 0, doc_count_error_upper_bound: 0, approximate: false };
  return { facets: Object.fromEntries(request.fields.map((field) => [field, empty])) };
}

/** `signal_stats`: each signal's mean (as /aggregate reports it) and how many shared articles carry it. */
function signalStats(found: NonNullable<PairSummary["signals"]>): Record<string, { mean: number; articles: number }> {
  const out: Record<string, { mean: number; articles: number }> = {};
  for (const [name, stat] of Object.entries(found)) out[name] = { mean: reportedMean(stat.mean), articles: stat.articles };
  return out;
}
