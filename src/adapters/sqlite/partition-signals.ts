import type { ArticlePartition } from "./article-partition.js";
import { matchSet, type Params, type PartitionSearch } from "./match-conditions.js";
import type { ScanBudget } from "./scan-budget.js";
import { signalOfCode } from "../../domain/vocabularies/signals-v1.js";

// Signal intensities over a match set in one monthly index, for the threshold
// pass of `signal_percentile_min` (services/search/signal-percentile.ts).

/** Intensities of the signal `code` among the matches carrying it, ascending; those read before the budget ran out. */
export function signalValuesOf(
  partition: ArticlePartition,
  search: PartitionSearch,
  code: number,
  budget: ScanBudget,
): Float64Array {
  const params: Params = { code };
  if (onlyCarries(search, code)) {
    // Every article carrying the signal matches: its intensities come sorted from their own index, no article read.
    const sorted = partition.statements
      .get("SELECT value FROM signal_values INDEXED BY signal_values_by_value WHERE signal = @code ORDER BY value")
      .pluck()
      .all(params) as number[];
    return Float64Array.from(sorted);
  }
  const sql = `SELECT s.value FROM (${matchSet(search, params, "a.rowid AS article")}) m
    JOIN signal_values s ON s.article = m.article AND s.signal = @code`;
  const values: number[] = [];
  for (const value of partition.statements.get(sql).pluck().iterate(params) as Iterable<number>) {
    if (budget.spent()) break;
    values.push(value);
  }
  return Float64Array.from(values).sort();
}

/** The query is "carries signal `code`" and nothing else: no keywords, window, range or other filter. */
function onlyCarries(search: PartitionSearch, code: number): boolean {
  const [term, ...others] = search.terms;
  return (
    search.match === undefined &&
    search.from === undefined &&
    search.to === undefined &&
    search.ranges.length === 0 &&
    others.length === 0 &&
    term !== undefined &&
    term.field === "signal" &&
    term.key === signalOfCode(code)
  );
}
