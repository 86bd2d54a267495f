import type { ArticleDetail } from "../domain/article.js";
import type { ArticleExporter } from "./article-export.js";
import type { CursorPosition } from "../domain/browse-cursor.js";
import type { Interval } from "../domain/aggregate/buckets.js";
import type { EntityType } from "../domain/entities/entity-key.js";
import type { KeywordQuery } from "../domain/keyword-query.js";
import type { Facet } from "../domain/facets.js";
import type { FilterField } from "../domain/filter-fields.js";
import type { ArticleFilters, ArticleQuery } from "../domain/search-query.js";
import type { SignalName } from "../domain/vocabularies/signals-v1.js";

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
  /**
   * `unreadable`: missing, locked or damaged; `timed_out`: left unread when the query's budget ran out;
   * `field_unavailable`: built without a derived field the query needs (until `newsindex reindex` rebuilds it).
   */
  kind: "unreadable" | "timed_out" | "field_unavailable";
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

/** What the geographic and amount filters took (spec section 4, rule 6). */
export interface CandidatesChecked {
  /** Batches of CANDIDATE_BATCH the most expensive monthly index checked (the call is charged for them). */
  batches: number;
  /** Some monthly index matched more candidates than it checked: totals are estimates, facets approximate. */
  approximate: boolean;
  /** Matches found among the checked candidates: paging stops when they run out. */
  passed: number;
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
  /** Present with geographic or amount filters. */
  candidates?: CandidatesChecked;
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
  /** Signal metrics: per bucket, each signal's mean and nearest-rank `percentile` over the matches carrying it. */
  signals?: { names: SignalName[]; percentile: number };
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
  /** With `signals`: each signal carried by a match in the bucket, its mean, percentile and how many matches carry it (exact across indexes). */
  signals?: Partial<Record<SignalName, { mean: number; percentile: number; articles: number }>>;
  /** Monthly indexes that held matches in this bucket: distinct counts from more than one are summed. */
  indexes: number;
}

export interface AggregateResult {
  /** Buckets with at least one match, in no particular order. */
  rows: AggregateRow[];
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
}

/** The threshold of `signal_percentile_min` (spec section 2, `signal_threshold`). */
export interface SignalPercentile {
  /** The intensity at the percentile among the matching articles carrying the signal; null when none carries it. */
  value: number | null;
  /** True when the engine estimated it (a sketch, or a scan the budget cut short). */
  approximate: boolean;
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
}

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

export interface IndexBackend extends ArticleExporter {
  /** Stores articles, idempotent by id: an id already present is left unchanged. */
  write(articles: readonly ArticleDetail[]): Promise<WriteResult>;
  search(query: ArticleQuery): Promise<SearchResult>;
  /** The `percentile` (50 to 99.9, nearest rank) of `signal`'s intensity over the query's matches carrying it. */
  signalPercentile(
    query: Pick<ArticleQuery, "keywords" | "filters" | "budgetMs">,
    signal: SignalName,
    percentile: number,
  ): Promise<SignalPercentile>;
  getArticle(id: string): Promise<ArticleLookup>;
  /** Spellings of an entity type by their er-v1 keys, within a window. */
  entitySpellings(query: EntitySpellingsQuery): Promise<EntitySpellings>;
  /** Per time bucket, the matches and, on request, their distinct stories and publishers. */
  aggregate(query: AggregateQuery): Promise<AggregateResult>;
  /** Documents of articles ranked elsewhere (semantic, hybrid), by id; an id not found is left out. */
  getArticles(ids: readonly string[]): Promise<{ articles: Map<string, ArticleDetail>; partitionsFailed: PartitionFailure[] }>;
  nearest(query: NearestQuery): Promise<NearestResult>;
  /** An article's stored vector (the seed of /similar). */
  vectorOf(id: string, model: string): Promise<VectorLookup>;
  /** Number of articles held, across partitions that can be read. */
  count(): Promise<number>;
  close(): Promise<void>;
}

/** Progress of `newsindex reindex` through one monthly index. */
export interface RebuildProgress {
  month: string;
  /** Articles of the month done, of `total`. */
  done: number;
  total: number;
}

/**
 * Brings monthly indexes built before a derived vocabulary up to date from the
 * articles they store (`newsindex reindex`): resumable where it stopped, and
 * readable all along; a month records the vocabulary once it is done.
 */
export interface DerivedFieldsRebuild {
  rebuildDerived(options: {
    /** Articles per transaction. */
    batch?: number;
    onProgress?: (progress: RebuildProgress) => void;
  }): Promise<{ months: string[]; articles: number; skipped: Array<{ month: string; reason: string }> }>;
}
