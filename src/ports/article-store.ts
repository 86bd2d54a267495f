import type { ArticleDetail } from "../domain/article.js";
import type { PartitionFailure } from "./index-coverage.js";

// The article store: articles written once by id, and read back whole.

export interface WriteResult {
  /** Articles stored for the first time. */
  inserted: number;
  /** Articles already present (by id), left as they were. */
  unchanged: number;
}

export type ArticleLookup =
  { status: "found"; article: ArticleDetail } | { status: "absent" } | { status: "unavailable"; reason: string };

export interface ArticleStore {
  /** Stores articles, idempotent by id: an id already present is left unchanged. */
  write(articles: readonly ArticleDetail[]): Promise<WriteResult>;
  /**
   * Runs `load` (a loop of writes) as one bulk load, for a writer nothing reads right behind (an ingest of files):
   * an article written inside it may become searchable only when the load ends, and every one is when this returns,
   * whether `load` succeeds or fails. An engine without such a mode leaves it out: each write is searchable on return.
   */
  bulkLoad?<T>(load: () => Promise<T>): Promise<T>;
  /** One article as written; `unavailable` when the index that holds its id cannot be read. */
  getArticle(id: string): Promise<ArticleLookup>;
  /** Documents of articles ranked elsewhere (semantic, hybrid), by id; an id not found is left out. */
  getArticles(ids: readonly string[]): Promise<{ articles: Map<string, ArticleDetail>; partitionsFailed: PartitionFailure[] }>;
  /** Number of articles held, across the indexes that can be read. */
  count(): Promise<number>;
}
