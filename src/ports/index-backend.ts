import type { ArticleDetail } from "../domain/article.js";
import type { CursorPosition } from "../domain/browse-cursor.js";
import type { Facet } from "../domain/facets.js";
import type { FilterField } from "../domain/filter-fields.js";
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
  /** Relevance on ranked queries; higher is better; on one scale across monthly indexes (corpus-wide statistics). */
  score?: number;
}

export interface PartitionFailure {
  partition: string;
  /** `unreadable`: missing, locked or damaged; `timed_out`: left unread when the query's budget ran out. */
  kind: "unreadable" | "timed_out";
  reason: string;
}

/** What a cursor page did, beyond its hits. */
export interface CursorOutcome {
  /** Where the next page resumes; null when there is no further page. */
  next: CursorPosition | null;
  /** True when this page skipped the articles of a timestamp beyond the first TIE_GROUP_LIMIT. */
  tieGroupCut: boolean;
  /** True when the page continued inside the timestamp group the cursor stopped in. */
  resumedInTieGroup: boolean;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Matches across the partitions read. */
  total: number;
  /** Partitions (months, `YYYYMM`) that answered. */
  partitionsRead: string[];
  /** Partitions that could not be read: the answer is partial. */
  partitionsFailed: PartitionFailure[];
  /** Present when facets were requested: counts over the whole match set. */
  facets?: Partial<Record<FilterField, Facet>>;
  /** Present on cursor paging. */
  cursor?: CursorOutcome;
}

export type ArticleLookup =
  { status: "found"; article: ArticleDetail } | { status: "absent" } | { status: "unavailable"; reason: string };

/** Semantic ranking: the `k` articles nearest a query vector among those passing the filters. */
export interface NearestQuery {
  vector: Float32Array;
  /** The model `vector` was made with: only vectors of the same model are compared. */
  model: string;
  filters: ArticleQuery["filters"];
  k: number;
  budgetMs?: number;
  /** Leaves out this story's members (/similar: the seed's own story, however large). */
  excludeStory?: string;
}

export interface NearestArticle {
  id: string;
  story_id: string | null;
  published_at: string;
  /** Cosine similarity. */
  score: number;
}

export interface NearestResult {
  /** Best first, at most `k`. */
  hits: NearestArticle[];
  /** Articles compared. */
  scored: number;
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
  /** Indexes read where some matching articles are not embedded (with the model) yet: they were left out. */
  partitionsUnembedded: string[];
}

export type VectorLookup =
  /** `vector` null: the article has no text to embed. */
  | { status: "found"; vector: Float32Array | null; story_id: string | null }
  | { status: "unembedded"; story_id: string | null }
  | { status: "absent" }
  | { status: "unavailable"; reason: string };

export interface IndexBackend {
  /** Stores articles, idempotent by id: an id already present is left unchanged. */
  write(articles: readonly ArticleDetail[]): Promise<WriteResult>;
  search(query: ArticleQuery): Promise<SearchResult>;
  getArticle(id: string): Promise<ArticleLookup>;
  /** Documents of articles ranked elsewhere (semantic, hybrid), by id; an id not found is left out. */
  getArticles(ids: readonly string[]): Promise<{ articles: Map<string, ArticleDetail>; partitionsFailed: PartitionFailure[] }>;
  nearest(query: NearestQuery): Promise<NearestResult>;
  /** An article's stored vector (the seed of /similar). */
  vectorOf(id: string, model: string): Promise<VectorLookup>;
  /** Number of articles held, across partitions that can be read. */
  count(): Promise<number>;
  close(): Promise<void>;
}
