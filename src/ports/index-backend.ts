import type { ArticleDetail } from "../domain/article.js";
import type { ArticleQuery } from "../domain/search-query.js";

// The article index: embedded SQLite (one file per month) or, in the scaled
// shape, OpenSearch. Each monthly partition is one "index" in the spec's sense.

export interface WriteResult {
  /** Articles stored for the first time. */
  inserted: number;
  /** Articles already present (by id), left as they were. */
  unchanged: number;
}

export interface SearchHit {
  article: ArticleDetail;
  /** Relevance on ranked queries; higher is better; comparable only within one response. */
  score?: number;
}

export interface PartitionFailure {
  partition: string;
  reason: string;
}

export interface SearchResult {
  hits: SearchHit[];
  total: number;
  /** Partitions (months, `YYYYMM`) that answered. */
  partitionsRead: string[];
  /** Partitions that could not be read: the answer is partial. */
  partitionsFailed: PartitionFailure[];
}

export type ArticleLookup =
  { status: "found"; article: ArticleDetail } | { status: "absent" } | { status: "unavailable"; reason: string };

export interface IndexBackend {
  /** Stores articles, idempotent by id: an id already present is left unchanged. */
  write(articles: readonly ArticleDetail[]): Promise<WriteResult>;
  search(query: ArticleQuery): Promise<SearchResult>;
  getArticle(id: string): Promise<ArticleLookup>;
  /** Number of articles held, across partitions that can be read. */
  count(): Promise<number>;
  close(): Promise<void>;
}
