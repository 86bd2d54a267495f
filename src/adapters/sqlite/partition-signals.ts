import type { ArticlePartition } from "./article-partition.js";
import { matchSet, type Params, type PartitionSearch } from "./match-conditions.js";
import type { ScanBudget } from "./scan-budget.js";

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
  const sql = `SELECT s.value FROM (${matchSet(search, params, "a.rowid AS article")}) m
    JOIN signal_values s ON s.article = m.article AND s.signal = @code`;
  const values: number[] = [];
  for (const value of partition.statements.get(sql).pluck().iterate(params) as Iterable<number>) {
    if (budget.spent()) break;
    values.push(value);
  }
  return Float64Array.from(values).sort();
}
