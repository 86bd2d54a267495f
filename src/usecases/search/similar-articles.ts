import { toArticle, toCompactArticle } from "../../domain/article.js";
import { ATTRIBUTION } from "../../domain/attribution.js";
import { embeddingText } from "../../domain/embedding-text.js";
import type { Plan } from "../../domain/plans.js";
import type { Embedder } from "../../ports/embedder.js";
import type { IndexBackend } from "../../ports/index-backend.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import type { NearestArticle } from "../../ports/vector-search.js";
import type { SearchResponse } from "../../schemas/responses.js";
import { ApiError } from "../../shared/api-error.js";
import { getArticle } from "../articles/get-article.js";
import { meaningCompleteness } from "./search-by-meaning.js";
import { applyPlanWindow } from "../query-kernel/plan-window.js";
import { QUERY_BUDGET_MS } from "../query-kernel/query-budget.js";
import type { ArticleView } from "./article-search-request.js";

// GET /similar/{id}: the articles nearest the seed's embedding within the
// plan's reach, one per story (its member nearest the seed), leaving out the
// seed and every article of the seed's own story. A seed not embedded yet is
// embedded on the spot from its document, so a fresh article has neighbours
// at once. 404 for an unknown seed; 503 when the seed's monthly index cannot
// be read (never an empty list); 400 for a seed older than the plan reaches.
// `total` counts the stories found among the SIMILAR_DEPTH nearest articles
// (approximate); `has_more` says more of them exist than `limit` showed
// (raise `limit` to see them).

export const SIMILAR_DEPTH = 500;

export interface SimilarRequest {
  id: string;
  limit: number;
  view: ArticleView;
}

export async function similarArticles(
  index: IndexBackend,
  embedder: Embedder,
  request: SimilarRequest,
  plan: Plan,
  nowMs: number,
): Promise<SearchResponse> {
  const seed = await seedOf(index, embedder, request.id, plan, nowMs);
  const window = applyPlanWindow(plan, undefined, undefined, nowMs);
  const ownStory = seed.story_id ?? request.id;
  let neighbours: NearestArticle[] = [];
  let ranking: { partitionsRead: string[]; partitionsFailed: PartitionFailure[]; unembedded: boolean } = {
    partitionsRead: [],
    partitionsFailed: [],
    unembedded: false,
  };
  if (seed.vector !== null) {
    const near = await index.nearest({
      vector: seed.vector,
      model: embedder.model,
      filters: window.from === undefined ? {} : { from: window.from },
      k: SIMILAR_DEPTH,
      budgetMs: QUERY_BUDGET_MS,
      excludeStory: ownStory,
    });
    neighbours = near.hits;
    ranking = {
      partitionsRead: near.partitionsRead,
      partitionsFailed: near.partitionsFailed,
      unembedded: near.partitionsUnembedded.length > 0,
    };
  }
  const perStory = new Map<string, NearestArticle>();
  for (const hit of neighbours) {
    const story = hit.story_id ?? hit.id;
    if (hit.id === request.id || story === ownStory || perStory.has(story)) continue;
    perStory.set(story, hit);
  }
  const page = [...perStory.values()].slice(0, request.limit);
  const loaded = await index.getArticles(page.map((p) => p.id));
  for (const f of loaded.partitionsFailed) ranking.partitionsFailed.push(f);
  const results = page.flatMap((hit) => {
    const doc = loaded.articles.get(hit.id);
    if (doc === undefined) return [];
    const score = Math.round(hit.score * 1_000_000) / 1_000_000;
    return [request.view === "compact" ? toCompactArticle(doc, score) : { ...toArticle(doc), score }];
  });
  const { partial, coverage } = meaningCompleteness(ranking);
  return {
    results,
    total: perStory.size,
    total_relation: "approximate",
    offset: 0,
    limit: request.limit,
    has_more: perStory.size > results.length,
    mode: "similar",
    history_days: window.history_days,
    from_clamped: window.from_clamped,
    partial,
    coverage,
    attribution: ATTRIBUTION,
  };
}

/**
 * The seed's vector and story: stored, or embedded now from its document; null when it has no text to embed. The
 * seed is read first, so an unknown id is 404, an unreadable index 503 and a seed older than the plan reaches 400,
 * as on /doc: its meaning is not used where the article itself would not be served.
 */
async function seedOf(
  index: IndexBackend,
  embedder: Embedder,
  id: string,
  plan: Plan,
  nowMs: number,
): Promise<{ vector: Float32Array | null; story_id: string | null }> {
  const article = await getArticle(index, id, plan, nowMs);
  const stored = await index.vectorOf(id, embedder.model);
  switch (stored.status) {
    case "found":
      return stored;
    case "absent":
      throw new ApiError("not_found", `No article has the id ${id}.`);
    case "unavailable":
      throw new ApiError(
        "upstream_unavailable",
        `The index holding the seed ${id} could not be read. This is not an empty answer; retry with backoff.`,
      );
    case "unembedded": {
      const text = embeddingText(article);
      const [vector] = text === "" ? [] : await embedder.embed([text], "passage");
      return { vector: vector ?? null, story_id: article.story_id };
    }
  }
}
