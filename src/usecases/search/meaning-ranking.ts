import type { ArticleDetail } from "../../domain/article.js";
import type { KeywordQuery } from "../../domain/keyword-query.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import { semanticText } from "../../domain/semantic-query.js";
import type { Embedder } from "../../ports/embedder.js";
import type { ArticleSearch } from "../../ports/article-search.js";
import type { VectorSearch } from "../../ports/vector-search.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";

// Semantic and hybrid ranking (spec: `mode`, Pagination rule 4). Both rank a
// bounded candidate set, so their totals are approximate:
//
//   semantic  the SEMANTIC_DEPTH articles nearest `q`'s embedding (cosine)
//             among those passing every filter
//   hybrid    those, fused with the KEYWORD_DEPTH best BM25 matches by
//             reciprocal-rank fusion: each article scores the sum over the two
//             rankings of 1 / (RRF_K + rank). Chosen on the judged set in
//             eval/search/ (see its RESULTS.md).
//
// Months whose articles are not all embedded yet are ranked on the embedded
// part; the answer then says so (partial, coverage `field_unavailable`).

export const SEMANTIC_DEPTH = 1000;
/**
 * With RRF_K 60 an article at keyword rank 50 adds at most 1/110 to its score, less than the semantic top 50 alone
 * give: a deeper keyword list moves only the tail. 50, 100 and 200 score the same nDCG@10 on the judged set
 * (eval/search); the keyword half's cost at a million articles grows with the depth (bench/RESULTS.md).
 */
export const KEYWORD_DEPTH = 50;
export const RRF_K = 60;

export interface RankedArticle {
  id: string;
  story_id: string | null;
  published_at: string;
  score: number;
}

export interface MeaningRanking {
  /** Best first: the candidate set. */
  ranked: RankedArticle[];
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
  /** Some matching articles in range are not embedded yet: the ranking covers the embedded part only. */
  unembedded: boolean;
  /** Documents already read (the keyword half of hybrid), by id. */
  docs: Map<string, ArticleDetail>;
}

export interface MeaningQuery {
  mode: "semantic" | "hybrid";
  /** `q` as written. */
  text: string;
  keywords: KeywordQuery;
  filters: ArticleFilters;
  budgetMs: number;
}

export async function rankByMeaning(
  index: VectorSearch & ArticleSearch,
  embedder: Embedder,
  query: MeaningQuery,
): Promise<MeaningRanking> {
  const [vector] = await embedder.embed([semanticText(query.text) || query.text], "query");
  if (vector === undefined) throw new Error("the embedder returned no vector");
  const nearestCall = index.nearest({
    vector,
    model: embedder.model,
    filters: query.filters,
    k: SEMANTIC_DEPTH,
    budgetMs: query.budgetMs,
  });
  if (query.mode === "semantic") {
    const near = await nearestCall;
    return {
      ranked: near.hits,
      partitionsRead: near.partitionsRead,
      partitionsFailed: near.partitionsFailed,
      unembedded: near.partitionsUnembedded.length > 0,
      docs: new Map(),
    };
  }
  const [near, keyword] = await Promise.all([
    nearestCall,
    index.search({ keywords: query.keywords, filters: query.filters, offset: 0, limit: KEYWORD_DEPTH, budgetMs: query.budgetMs }),
  ]);
  const fused = new Map<string, RankedArticle>();
  const add = (article: Omit<RankedArticle, "score">, rank: number): void => {
    const seen = fused.get(article.id);
    const score = 1 / (RRF_K + rank + 1);
    if (seen) seen.score += score;
    else fused.set(article.id, { ...article, score });
  };
  near.hits.forEach((hit, rank) => add(hit, rank));
  const docs = new Map<string, ArticleDetail>();
  keyword.hits.forEach((hit, rank) => {
    const a = hit.article;
    docs.set(a.id, a);
    add({ id: a.id, story_id: a.story_id, published_at: a.published_at ?? a.id.slice(0, 14) }, rank);
  });
  const failed = [...near.partitionsFailed];
  for (const f of keyword.partitionsFailed) if (!failed.some((g) => g.partition === f.partition)) failed.push(f);
  return {
    ranked: [...fused.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)),
    partitionsRead: near.partitionsRead.filter((m) => keyword.partitionsRead.includes(m)),
    partitionsFailed: failed,
    unembedded: near.partitionsUnembedded.length > 0,
    docs,
  };
}
