import type { ArticleDetail } from "../domain/article.js";
import type { Interval } from "../domain/aggregate/buckets.js";
import type { IndexUsage } from "../domain/billing/index-usage.js";
import type { CursorPosition } from "../domain/browse-cursor.js";
import type { Facet } from "../domain/facets.js";
import type { FilterField } from "../domain/filter-fields.js";
import type { KeywordQuery } from "../domain/keyword-query.js";
import type { ArticleFilters, ArticleQuery } from "../domain/search-query.js";
import type { SignalName } from "../domain/vocabularies/signals-v1.js";
import type { IndexCoverage } from "./index-coverage.js";

// Article search and its tallies: ranked or newest-first hits with an exact
// total, facets, cursor pages, a signal's percentile and time series. Answers
// are hits, counts, top-k and tallies, with the coverage of the read and, where
// a price depends on it, its usage (domain/billing/index-usage.ts).

export interface SearchHit {
  article: ArticleDetail;
  /** Relevance on ranked queries; higher is better; one scale across the whole index (corpus-wide statistics). */
  score?: number;
}

/** What a cursor page did, beyond its hits (spec section 4, Pagination rule 3). */
export interface CursorOutcome {
  /** Where the next page resumes; null when there is no further page. */
  next: CursorPosition | null;
  /** True when this page skipped the articles of a timestamp beyond the first TIE_GROUP_LIMIT. */
  tieGroupCut: boolean;
}

/** What the geographic and amount filters found (spec section 4, rule 6); what they took is in `usage`. */
export interface CandidatesChecked {
  /** More candidates matched than were checked: totals are estimates, facets approximate. */
  approximate: boolean;
  /** Matches found among the checked candidates: paging stops when they run out. */
  passed: number;
}

export interface SearchResult extends IndexCoverage {
  hits: SearchHit[];
  /** Matches across the indexes read. */
  total: number;
  /** Present when facets were requested: counts over the whole match set. */
  facets?: Partial<Record<FilterField, Facet>>;
  /** Present on cursor paging. */
  cursor?: CursorOutcome;
  /** Present with geographic or amount filters. */
  candidates?: CandidatesChecked;
  usage: IndexUsage;
}

/** A time series over a match set (GET /aggregate). */
export interface AggregateQuery {
  keywords?: KeywordQuery;
  /** With the window: the series covers published_at from `from` to `to`. */
  filters: ArticleFilters;
  interval: Interval;
  /** Distinct stories and distinct publishers per bucket, beside the article count. */
  metrics: { stories: boolean; outlets: boolean };
  /**
   * Signal metrics: per bucket, each signal's mean and nearest-rank `percentile` (domain/aggregate/percentile-rank.ts)
   * over the matches carrying it.
   */
  signals?: { names: SignalName[]; percentile: number };
  /** How long the read may take: indexes not read within it are reported `timed_out`. */
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
  /** With `signals`: each signal carried by a match in the bucket, its mean, percentile and how many matches carry it. */
  signals?: Partial<Record<SignalName, { mean: number; percentile: number; articles: number }>>;
  /** `stories` and `outlets` are estimates (summed over indexes, or counted by a sketch). */
  approximate: boolean;
}

export interface AggregateResult extends IndexCoverage {
  /** Buckets with at least one match, in no particular order. */
  rows: AggregateRow[];
}

/** The threshold of `signal_percentile_min` (spec section 2, `signal_threshold`). */
export interface SignalPercentile extends IndexCoverage {
  /** The intensity at the percentile among the matching articles carrying the signal; null when none carries it. */
  value: number | null;
  /** True when the engine estimated it (a sketch, or a read the budget cut short). */
  approximate: boolean;
}

export interface ArticleSearch {
  search(query: ArticleQuery): Promise<SearchResult>;
  /** The `percentile` (50 to 99.9, nearest rank) of `signal`'s intensity over the query's matches carrying it. */
  signalPercentile(
    query: Pick<ArticleQuery, "keywords" | "filters" | "budgetMs">,
    signal: SignalName,
    percentile: number,
  ): Promise<SignalPercentile>;
  /** Per time bucket, the matches and, on request, their distinct stories and publishers. */
  aggregate(query: AggregateQuery): Promise<AggregateResult>;
}
