import { toArticle, toCompactArticle, type ArticleDetail } from "../../domain/article.js";
import { ATTRIBUTION } from "../../domain/attribution.js";
import { candidateBatches } from "../../domain/billing/index-usage.js";
import { passesCandidateCheck } from "../../domain/candidate-check.js";
import { matchedLocations } from "../../domain/geo-area.js";
import type { Plan } from "../../domain/plans.js";
import type { CandidateCheck } from "../../domain/search-query.js";
import type { Embedder } from "../../ports/embedder.js";
import type { ArticleSearch } from "../../ports/article-search.js";
import type { ArticleStore } from "../../ports/article-store.js";
import type { VectorSearch } from "../../ports/vector-search.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import type { SearchResponse } from "../../schemas/responses.js";
import { candidateFacets } from "./candidate-facets.js";
import { assertSomethingRead, completeness, type Completeness } from "../query-kernel/coverage.js";
import { rankByMeaning, type MeaningRanking } from "./meaning-ranking.js";
import { applyPlanWindow } from "../query-kernel/plan-window.js";
import { QUERY_BUDGET_MS } from "../query-kernel/query-budget.js";
import type { SearchOutcome } from "./search-articles.js";
import type { ArticleSearchRequest } from "./article-search-request.js";
import { withSignalThreshold } from "./signal-percentile.js";

// /search with `mode=semantic` or `mode=hybrid`: the candidate set of
// meaning-ranking.ts, paged by offset. `total` is the size of that set and
// `total_relation` is `approximate` (Pagination rule 4); a page past its end
// is empty with `has_more: false`; facets count over the set. Every shared
// filter holds: the exact ones and signal bounds select what is ranked,
// `signal_percentile_min` sets its bound first, and the geographic and amount
// filters check the ranked set.

export async function searchByMeaning(
  index: VectorSearch & ArticleSearch & ArticleStore,
  embedder: Embedder,
  request: ArticleSearchRequest & { mode: "semantic" | "hybrid"; text: string },
  plan: Plan,
  nowMs: number,
  budgetMs = QUERY_BUDGET_MS,
): Promise<SearchOutcome> {
  const window = applyPlanWindow(plan, request.filters.from, request.filters.to, nowMs);
  if (request.keywords === undefined) throw new Error("a ranked search has keywords");
  let filters = { ...request.filters, from: window.from, to: window.to };
  // signal_percentile_min: the threshold over the articles the filters match (meaning ranks them, not q's words),
  // then a lower bound like signal_min.
  const pass = request.percentile ? await withSignalThreshold(index, { filters, budgetMs }, request.percentile) : undefined;
  if (pass) filters = pass.query.filters;
  let ranking = await rankByMeaning(index, embedder, {
    mode: request.mode,
    text: request.text,
    keywords: request.keywords,
    filters,
    budgetMs,
  });
  assertSomethingRead(ranking, window.to);
  addFailures(ranking.partitionsFailed, pass?.failed ?? []);
  const checked = request.check ? await checkRanking(index, ranking, request.check) : undefined;
  if (checked) ranking = checked.ranking;
  const { ranked } = ranking;
  const page = ranked.slice(request.offset, request.offset + request.limit);
  const wanted = request.facets ? ranked : page;
  const docs = await documents(
    index,
    ranking,
    wanted.map((r) => r.id),
  );
  const area = request.check?.area;
  const results = page.flatMap((hit) => {
    const doc = docs.get(hit.id);
    if (doc === undefined) return [];
    const score = Math.round(hit.score * 1_000_000) / 1_000_000;
    if (request.view === "compact") return [toCompactArticle(doc, score)];
    return [{ ...toArticle(doc), score, ...(area ? { matched_locations: matchedLocations(doc.location_details, area) } : {}) }];
  });
  const { partial, coverage } = meaningCompleteness(ranking);
  const body: SearchResponse = {
    results,
    total: ranked.length,
    total_relation: "approximate",
    offset: request.offset,
    limit: request.limit,
    has_more: request.offset + page.length < ranked.length,
    mode: request.mode,
    ...(request.facets
      ? {
          facets: candidateFacets(
            wanted.flatMap((r) => docs.get(r.id) ?? []),
            request.facets.fields,
            request.facets.limit,
          ),
        }
      : {}),
    ...(pass ? { signal_threshold: pass.threshold } : {}),
    history_days: window.history_days,
    from_clamped: window.from_clamped,
    partial,
    coverage,
    attribution: ATTRIBUTION,
  };
  // The candidate set is checked in batches of CANDIDATE_BATCH (one credit each, spec section 8).
  return checked ? { body, candidateBatches: checked.batches } : { body };
}

/**
 * The candidates that pass the geographic and amount filters, read from their
 * own records, and the batches of CANDIDATE_BATCH checked (one credit each,
 * spec section 8). The whole set is checked: it is at most
 * SEMANTIC_DEPTH + KEYWORD_DEPTH, within the spec's 2,000.
 */
export async function checkRanking(
  index: Pick<ArticleStore, "getArticles">,
  ranking: MeaningRanking,
  check: CandidateCheck,
): Promise<{ ranking: MeaningRanking; batches: number }> {
  const docs = await documents(
    index,
    ranking,
    ranking.ranked.map((r) => r.id),
  );
  const ranked = ranking.ranked.filter((r) => {
    const doc = docs.get(r.id);
    return doc !== undefined && passesCandidateCheck(doc, check);
  });
  return {
    ranking: { ...ranking, ranked, docs },
    // Checked here, from the candidates' records: every one ranked, in at least one batch.
    batches: Math.max(1, candidateBatches({ indexQueries: 0, candidatesExamined: ranking.ranked.length })),
  };
}

/**
 * Unreadable or unread indexes first (their coverage says what to do); else, when part of the range is not embedded
 * yet, `field_unavailable`: the embedding is the field the ranking needs, and the answer covers only the embedded part.
 */
export function meaningCompleteness(
  ranking: Pick<MeaningRanking, "partitionsFailed" | "partitionsRead" | "unembedded">,
): Completeness {
  const read = completeness(ranking.partitionsFailed, ranking.partitionsRead);
  if (read.partial || !ranking.unembedded) return read;
  return { partial: true, coverage: "field_unavailable" };
}

async function documents(
  index: Pick<ArticleStore, "getArticles">,
  ranking: MeaningRanking,
  ids: string[],
): Promise<Map<string, ArticleDetail>> {
  const missing = ids.filter((id) => !ranking.docs.has(id));
  const docs = new Map(ranking.docs);
  if (missing.length === 0) return docs;
  const loaded = await index.getArticles(missing);
  addFailures(ranking.partitionsFailed, loaded.partitionsFailed);
  for (const [id, doc] of loaded.articles) docs.set(id, doc);
  return docs;
}

function addFailures(into: PartitionFailure[], more: readonly PartitionFailure[]): void {
  for (const f of more) if (!into.some((g) => g.partition === f.partition)) into.push(f);
}
