import type { CursorPosition } from "./browse-cursor.js";
import type { EntityType } from "./entities/entity-key.js";
import type { FilterField } from "./filter-fields.js";
import type { KeywordQuery } from "./keyword-query.js";

// The validated query that services hand to an IndexBackend. Filter values are
// as the caller wrote them (trimmed; `source` without scheme or `www.`); the
// index compares them case-insensitively (filter-fields.ts `foldValue`).

/** An `entity_id` filter: every spelling of `type` whose er-v1 key is `key` matches. */
export interface EntityFilter {
  type: EntityType;
  key: string;
}

export type ArticleFilters = { [K in FilterField]?: string } & {
  /** `entity_id` values, ANDed; each matches any spelling of its group. */
  entities?: EntityFilter[];
  /** 14-digit, inclusive: published_at >= from. */
  from?: string;
  /** 14-digit, inclusive: published_at <= to. */
  to?: string;
};

export interface FacetRequest {
  /** Distinct fields, at most 8. */
  fields: FilterField[];
  /** Values per field, 1 to 100. */
  limit: number;
}

export interface ArticleQuery {
  /** The parsed `q`; absent means a newest-first browse. */
  keywords?: KeywordQuery;
  filters: ArticleFilters;
  offset: number;
  limit: number;
  /** Cursor paging of a browse (no keywords, offset 0): resume after `after`, or from the newest when null. */
  cursor?: { after: CursorPosition | null };
  facets?: FacetRequest;
  /** Monthly indexes not started within this many milliseconds are left unread (coverage `timed_out`). */
  budgetMs?: number;
}
