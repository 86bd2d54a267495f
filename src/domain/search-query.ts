import type { SourceType } from "./article.js";
import type { KeywordQuery } from "./keyword-query.js";

// The validated, normalised query that services hand to an IndexBackend.
// Values are already in the index's case (see normalise functions in schemas/).

export interface ArticleFilters {
  source?: string;
  source_type?: SourceType;
  /** Upper-case FIPS code. */
  publisher_country?: string;
  /** Lower-case ISO 639-3. */
  language?: string;
  /** 14-digit, inclusive: published_at >= from. */
  from?: string;
  /** 14-digit, inclusive: published_at <= to. */
  to?: string;
}

export interface ArticleQuery {
  /** The parsed `q`; absent means a newest-first browse. */
  keywords?: KeywordQuery;
  filters: ArticleFilters;
  offset: number;
  limit: number;
}
