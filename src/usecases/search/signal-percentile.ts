import type { ArticleQuery } from "../../domain/search-query.js";
import type { ArticleSearch } from "../../ports/article-search.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import type { SignalThreshold } from "../../schemas/responses.js";
import type { PercentileRequest } from "./signal-filters.js";

// The threshold pass of `signal_percentile_min` (spec section 4; priced as one
// extra credit): the signal's intensity at the percentile over every article
// the rest of the query matches and that carries the signal, then the query
// runs with that intensity as the signal's lower bound.

export async function withSignalThreshold<Q extends Pick<ArticleQuery, "keywords" | "filters" | "budgetMs">>(
  index: Pick<ArticleSearch, "signalPercentile">,
  query: Q,
  request: PercentileRequest,
): Promise<{ query: Q; threshold: SignalThreshold; failed: PartitionFailure[] }> {
  const found = await index.signalPercentile(query, request.name, request.percentile);
  const range = found.value === null ? { name: request.name } : { name: request.name, min: found.value };
  return {
    query: { ...query, filters: { ...query.filters, signal_ranges: [...(query.filters.signal_ranges ?? []), range] } },
    threshold: { name: request.name, percentile: request.percentile, value: found.value, approximate: found.approximate },
    failed: found.partitionsFailed,
  };
}
