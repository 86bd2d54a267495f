import type { ArticleDetail } from "./article.js";
import type { CursorPosition } from "./browse-cursor.js";
import type { EntityType } from "./entities/entity-key.js";
import type { GeoArea } from "./geo-area.js";
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
  /** `signal` with `signal_min`/`signal_max`, and each `signals` clause: all must hold. */
  signal_ranges?: SignalRange[];
};

/**
 * The geographic and amount filters (spec section 4, rule 6): checked on the
 * query's first candidates, in batches of CANDIDATE_BATCH up to
 * CANDIDATE_LIMIT per index, rather than matched through the index.
 */
export interface CandidateCheck {
  /** `near` + `radius_km`, or `bbox`: a mentioned city inside it. */
  area?: GeoArea;
  /** `amount_min`/`amount_max`: one amount within both bounds (describing `amount_object` when given). */
  amount?: { min?: number; max?: number; object?: string };
}

export const CANDIDATE_BATCH = 500;
export const CANDIDATE_LIMIT = 2000;

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
  /** Geographic and amount filters, checked on candidates. */
  check?: CandidateCheck;
  /** How long the read may take: indexes not read within it are reported `timed_out` (the answer is partial). */
  budgetMs?: number;
  /**
   * The article fields the caller reads from each hit; an engine that fetches documents by field may leave the
   * others out (a hit's other fields are then absent). Absent: every field.
   */
  fields?: readonly (keyof ArticleDetail)[];
}
