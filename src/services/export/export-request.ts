import type { KeywordQuery } from "../../domain/keyword-query.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import { ApiError } from "../../shared/api-error.js";
import { filtersOf, keywordsOf, type ListParams } from "../search/search-request.js";
import { signalRangesOf } from "../search/signal-filters.js";

// Cross-field rules of GET /export, on parameters that passed their own
// checks: the /search filters and window, `q` as a match condition (an
// export is never ranked), `view`, and where to resume. No index work.

export type ExportParams = Omit<ListParams, "mode" | "offset" | "limit" | "facets" | "facet_limit" | "cursor"> & {
  resume_after?: string;
};

export interface ExportRequest {
  keywords: KeywordQuery | undefined;
  /** `from` is the caller's bound; the plan window is applied when the export is counted. */
  filters: ArticleFilters;
  view: "full" | "compact";
  /** The id of the last article a previous piece of this export delivered. */
  resumeAfter: string | undefined;
}

export function toExportRequest(params: ExportParams): ExportRequest {
  const filters = filtersOf(params);
  const { ranges } = signalRangesOf(params);
  if (ranges.length > 0) filters.signal_ranges = ranges;
  const resumeAfter = params.resume_after?.trim();
  if (resumeAfter === "") {
    throw new ApiError(
      "invalid_parameter",
      "'resume_after' is blank: give the id of the last article received, or leave it out.",
      {
        parameter: "resume_after",
      },
    );
  }
  return {
    keywords: params.q === undefined ? undefined : keywordsOf(params.q),
    filters,
    view: params.view ?? "full",
    resumeAfter,
  };
}
