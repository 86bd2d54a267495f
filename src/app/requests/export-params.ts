import { invalidParameter } from "../../shared/api-error.js";
import { signalRangesOf } from "../../usecases/search/signal-filters.js";
import type { ExportRequest } from "../../usecases/export/export-request.js";
import { filtersOf, keywordsOf, type ListParams } from "./search-params.js";

// Cross-field rules of GET /export, on parameters that passed their own
// checks: the /search filters and window, `q` as a match condition (an
// export is never ranked), `view`, and where to resume. No index work.

export type ExportParams = Omit<ListParams, "mode" | "offset" | "limit" | "facets" | "facet_limit" | "cursor"> & {
  resume_after?: string;
};

export function toExportRequest(params: ExportParams): ExportRequest {
  const filters = filtersOf(params);
  const { ranges } = signalRangesOf(params);
  if (ranges.length > 0) filters.signal_ranges = ranges;
  const resumeAfter = params.resume_after?.trim();
  if (resumeAfter === "") {
    throw invalidParameter("resume_after", "'resume_after' is blank: give the id of the last article received, or leave it out.");
  }
  return {
    keywords: params.q === undefined ? undefined : keywordsOf(params.q),
    filters,
    view: params.view ?? "full",
    resumeAfter,
  };
}
