import type { ArticleDetail } from "../domain/article.js";
import type { CursorPosition } from "../domain/browse-cursor.js";
import type { Interval } from "../domain/aggregate/buckets.js";
import type { EntityType } from "../domain/entities/entity-key.js";
import type { KeywordQuery } from "../domain/keyword-query.js";
import type { Facet } from "../domain/facets.js";
import type { FilterField } from "../domain/filter-fields.js";
import type { ArticleFilters, ArticleQuery } from "../domain/search-query.js";

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

/** Spellings of one entity type found through their er-v1 keys (domain/entities/entity-key.ts). */
export interface EntitySpellingsQuery {
  type: EntityType;
  /** An er-v1 key: an entity id's, or a name's. */
  key: string;
  /**
   * `id`: the spellings keyed `key` (an entity id's group); `words`: spellings
   * whose key holds `key` as whole words (a name's exact and prefix matches);
   * `acronym`: spellings whose initials `key` spells.
   */
  lookup: "id" | "words" | "acronym";
  /** The window, 14-digit inclusive: only spellings carried by an article in it, counted in it. */
  from?: string | undefined;
  to?: string | undefined;
  /** Count each spelling's articles in the window; false asks only whether it has one (`articles` is then 1). */
  counts: boolean;
  /** Spellings kept per monthly index, the most carried first. */
  limit: number;
  budgetMs?: number;
}

export interface EntitySpelling {
  /** The folded value, as filters match it. */
  key: string;
  /** A spelling as articles carry it. */
  value: string;
  /** Its er-v1 key. */
  entityKey: string;
  /** Articles carrying it in the window (see `counts`). */
  articles: number;
}

export interface EntitySpellings {
  /** Merged across monthly indexes, the most carried first. */
  spellings: EntitySpelling[];
  /** A monthly index held more than `limit` spellings: the rarest were left out. */
  truncated: boolean;
  /** The window cut into a monthly index holding spellings, so each was checked against it (a second lookup). */
  windowChecked: boolean;
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
}

/** A time series over a match set (GET /aggregate). */
export interface AggregateQuery {
  keywords?: KeywordQuery;
  /** With the window: the series covers published_at from `from` to `to`. */
  filters: ArticleFilters;
  interval: Interval;
  /** Distinct stories and distinct publishers per bucket, beside the article count. */
  metrics: { stories: boolean; outlets: boolean };
  budgetMs?: number;
}

export interface AggregateRow {
  /** The bucket's start, 14-digit (see domain/aggregate/buckets.ts); "" for `all`. */
  bucket: string;
  articles: number;
  stories?: number;
  outlets?: number;
  /** Earliest and latest published_at among the bucket's matches (null when none carries one). */
  first: string | null;
  last: string | null;
  /** Monthly indexes that held matches in this bucket: distinct counts from more than one are summed. */
  indexes: number;
}

export interface AggregateResult {
  /** Buckets with at least one match, in no particular order. */
  rows: AggregateRow[];
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
}

export interface IndexBackend {
  /** Stores articles, idempotent by id: an id already present is left unchanged. */
  write(articles: readonly ArticleDetail[]): Promise<WriteResult>;
  search(query: ArticleQuery): Promise<SearchResult>;
  getArticle(id: string): Promise<ArticleLookup>;
  /** Spellings of an entity type by their er-v1 keys, within a window. */
  entitySpellings(query: EntitySpellingsQuery): Promise<EntitySpellings>;
  /** Per time bucket, the matches and, on request, their distinct stories and publishers. */
  aggregate(query: AggregateQuery): Promise<AggregateResult>;
  /** Number of articles held, across partitions that can be read. */
  count(): Promise<number>;
  close(): Promise<void>;
}
