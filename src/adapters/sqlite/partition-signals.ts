import type { ArticlePartition } from "./article-partition.js";
import { matchSet, type Params, type PartitionSearch } from "./match-conditions.js";
import type { ScanBudget } from "./scan-budget.js";
import { signalOfCode } from "../../domain/vocabularies/signals-v1.js";

// Signal intensities over a match set in one monthly index, for the threshold
// pass of `signal_percentile_min` (federation/federated-tallies.ts signalPercentile).

/**
 * One index's intensities of a signal: `count` matches carry it, and `values`
 * (ascending) are the largest of them, all `count` unless `top` asked fewer.
 */
export interface SignalValuesPart {
  count: number;
  values: Float64Array;
}

/**
 * Intensities of the signal `code` among the matches carrying it. When every article carrying the signal matches
 * (nothing else filters), they come sorted from their own `(signal, value)` index: without `top` only their count
 * is read, with it the `top` largest, so the threshold pass reads the side of the distribution it needs. Otherwise
 * every match is read (those read before the budget ran out) and sorted here.
 */
export function signalValuesOf(
  partition: ArticlePartition,
  search: PartitionSearch,
  code: number,
  budget: ScanBudget,
  top?: number,
): SignalValuesPart {
  const params: Params = { code };
  if (onlyCarries(search, code)) {
    const count = partition.statements
      .get("SELECT count(*) FROM signal_values INDEXED BY signal_values_by_value WHERE signal = @code")
      .pluck()
      .get(params) as number;
    if (top === undefined || top <= 0) return { count, values: new Float64Array(0) };
    const largest = partition.statements
      .get(
        "SELECT value FROM signal_values INDEXED BY signal_values_by_value WHERE signal = @code ORDER BY value DESC LIMIT @top",
      )
      .pluck()
      .all({ ...params, top }) as number[];
    return { count, values: Float64Array.from(largest).reverse() };
  }
  const sql = `SELECT s.value FROM (${matchSet(search, params, "a.rowid AS article")}) m
    JOIN signal_values s ON s.article = m.article AND s.signal = @code`;
  const values: number[] = [];
  for (const value of partition.statements.get(sql).pluck().iterate(params) as Iterable<number>) {
    if (budget.spent()) break;
    values.push(value);
  }
  return { count: values.length, values: Float64Array.from(values).sort() };
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
