import type { KeywordQuery } from "../../domain/keyword-query.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import type { ArticleView } from "../search/article-search-request.js";

// What GET /export and `newsindex export` run once their parameters are
// checked (app/requests/export-params.ts builds it).

export interface ExportRequest {
  keywords: KeywordQuery | undefined;
  /** `from` is the caller's bound; the plan window is applied when the export is counted. */
  filters: ArticleFilters;
  view: ArticleView;
  /** The id of the last article a previous piece of this export delivered. */
  resumeAfter: string | undefined;
}
