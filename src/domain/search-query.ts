import type { CursorPosition } from "./browse-cursor.js";
import type { FilterField } from "./filter-fields.js";
import type { KeywordQuery } from "./keyword-query.js";
import type { SignalName } from "./vocabularies/signals-v1.js";

/** Articles carrying the signal (intensity above 0) within inclusive bounds; an absent bound is unbounded. */
export interface SignalRange {
  name: SignalName;
  min?: number;
  max?: number;
}

// The validated query that services hand to an IndexBackend. Filter values are
// as the caller wrote them (trimmed; `source` without scheme or `www.`); the
// index compares them case-insensitively (filter-fields.ts `foldValue`).

export type ArticleFilters = { [K in FilterField]?: string } & {
  /** 14-digit, inclusive: published_at >= from. */
  from?: string;
  /** 14-digit, inclusive: published_at <= to. */
  to?: string;
  /** `signal` with `signal_min`/`signal_max`, and each `signals` clause: all must hold. */
  signal_ranges?: SignalRange[];
};

/** The filters need a derived field (a derived filter field or a signal range): see DERIVED_FIELDS. */
export function needsDerivedFields(filters: ArticleFilters, derived: ReadonlySet<string>): boolean {
  return (filters.signal_ranges?.length ?? 0) > 0 || Object.keys(filters).some((k) => derived.has(k));
}

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
