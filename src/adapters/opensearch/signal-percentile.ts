import { nearestRankOf } from "../../domain/aggregate/percentile-rank.js";
import type { ArticleQuery } from "../../domain/search-query.js";
import type { SignalName } from "../../domain/vocabularies/signals-v1.js";
import type { SignalPercentile } from "../../ports/article-search.js";
import { MAX_RESULT_WINDOW } from "./article-mapping.js";
import type { MonthReader } from "./month-reader.js";
import { articleQuery, signalPath } from "./query-dsl.js";

// The nearest-rank percentile of a signal's intensity over the matches
// carrying it (domain/aggregate/percentile-rank.ts), exactly: count the
// matches carrying it, then read the value at that rank from the intensities
// sorted by the node (from whichever end is nearer). Only a rank beyond the
// node's result window from both ends falls back to the node's percentile
// estimate (a t-digest), and says so (`approximate`).

export async function signalPercentile(
  reader: MonthReader,
  query: Pick<ArticleQuery, "keywords" | "filters" | "budgetMs">,
  signal: SignalName,
  percentile: number,
): Promise<SignalPercentile> {
  const path = signalPath(signal);
  const carrying = articleQuery(query.keywords, query.filters, undefined, [{ range: { [path]: { gt: 0 } } }]);
  const counted = await reader.read(
    query.filters,
    { query: carrying, size: 0, track_total_hits: true },
    { budgetMs: query.budgetMs },
  );
  const n = counted.response?.hits.total?.value ?? 0;
  if (!counted.response || n === 0) return { value: null, approximate: false, ...counted.coverage };
  const rank = nearestRankOf(n, percentile);
  const fromTop = n - rank;
  const ascending = rank - 1 < MAX_RESULT_WINDOW;
  if (!ascending && fromTop >= MAX_RESULT_WINDOW) {
    const estimated = await reader.read(
      query.filters,
      { query: carrying, size: 0, aggs: { p: { percentiles: { field: path, percents: [percentile] } } } },
      { budgetMs: query.budgetMs },
    );
    const values = (estimated.response?.aggregations?.p as { values?: Record<string, number | null> } | undefined)?.values;
    return { value: Object.values(values ?? {})[0] ?? null, approximate: true, ...estimated.coverage };
  }
  const at = await reader.read(
    query.filters,
    {
      query: carrying,
      sort: [{ [path]: ascending ? "asc" : "desc" }],
      from: ascending ? rank - 1 : fromTop,
      size: 1,
      _source: false,
      track_total_hits: false,
    },
    { budgetMs: query.budgetMs },
  );
  const value = at.response?.hits.hits[0]?.sort?.[0];
  return {
    value: typeof value === "number" ? value : null,
    // A read the budget cut short ranked among fewer values than it counted.
    approximate: at.response?.timed_out === true || counted.response.timed_out,
    ...at.coverage,
  };
}
