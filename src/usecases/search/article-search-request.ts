import type { CursorPosition } from "../../domain/browse-cursor.js";
import type { KeywordQuery } from "../../domain/keyword-query.js";
import type { RankingMode } from "../../domain/pricing.js";
import type { ArticleFilters, CandidateCheck, FacetRequest } from "../../domain/search-query.js";
import type { Params } from "../../schemas/params.js";
import type { Static } from "@sinclair/typebox";
import type { PercentileRequest } from "./signal-filters.js";

// What /search and /top-headlines run once their parameters are checked
// (app/requests/search-request.ts builds it): the use case's own input.

export type ArticleView = Static<typeof Params.view>;

export interface ArticleSearchRequest {
  keywords: KeywordQuery | undefined;
  /** How `q` ranks; `keyword` on a browse (which is not ranked). */
  mode: RankingMode;
  /** `q` as written: what semantic ranking embeds. */
  text?: string;
  /** `from` is the caller's bound; the plan window is applied when the search runs. */
  filters: ArticleFilters;
  offset: number;
  limit: number;
  view: ArticleView;
  facets?: FacetRequest;
  /** Cursor paging: where to resume (null on `cursor=start`) and the fingerprint every page must match. */
  cursor?: { after: CursorPosition | null; fingerprint: string };
  /** `signal_percentile_min`: a threshold pass runs first (signal-percentile.ts). */
  percentile?: PercentileRequest;
  /** Geographic and amount filters: checked on the first candidates (candidate-filters.ts). */
  check?: CandidateCheck;
}
