import type { PartitionFacet } from "../../domain/facets.js";
import type { ArticlePartition } from "./article-partition.js";
import { FacetCounter } from "./facet-counter.js";
import { matchesWholeIndex, matchSet, type Params, type PartitionSearch } from "./match-conditions.js";
import { ScanBudget } from "./scan-budget.js";

// Facets in one monthly index: exact value counts over every match, from each
// match's doc values (facet-counter.ts), or from the term counts alone when
// every article matches.

/**
 * Exact value counts of the fields `codes` over every match in this index:
 * each field's top `depth` values with their spelling, and the number of
 * matches; over the matches read before the budget ran out when `timedOut`.
 */
export function countFacets(
  partition: ArticlePartition,
  search: PartitionSearch,
  codes: readonly number[],
  depth: number,
  budget = new ScanBudget(),
): { total: number; facets: Map<number, PartitionFacet>; timedOut: boolean } {
  if (matchesWholeIndex(search)) {
    // Every article matches: each term's article count is the answer.
    const facets = new Map(codes.map((code) => [code, wholeIndexFacet(partition, code, depth)]));
    return { total: search.articles, facets, timedOut: false };
  }
  const params: Params = {};
  const sql = matchSet(search, params, "a.terms");
  const counter = new FacetCounter(fieldSizes(partition, codes));
  const statement = partition.statements.get(sql).pluck();
  let total = 0;
  // Streamed, so memory stays flat and the budget is checked as rows come.
  for (const blob of statement.iterate(params) as Iterable<Buffer>) {
    // Leaving the loop ends the statement's iteration.
    if (budget.spent()) break;
    counter.add(blob);
    total++;
  }
  return { total, facets: spelledFacets(partition, counter, codes, depth), timedOut: budget.timedOut };
}

/** Exact value counts of the fields `codes` over the given articles (by rowid) of this index. */
export function countFacetsOf(
  partition: ArticlePartition,
  rowids: readonly number[],
  codes: readonly number[],
  depth: number,
): Map<number, PartitionFacet> {
  const counter = new FacetCounter(fieldSizes(partition, codes));
  const blobs = partition.statements
    .get("SELECT a.terms FROM json_each(?) j JOIN articles a ON a.rowid = j.value")
    .pluck()
    .iterate(JSON.stringify(rowids)) as Iterable<Buffer>;
  for (const blob of blobs) counter.add(blob);
  return spelledFacets(partition, counter, codes, depth);
}

/** Each field's top `depth` counted values, with their spelling. */
function spelledFacets(
  partition: ArticlePartition,
  counter: FacetCounter,
  codes: readonly number[],
  depth: number,
): Map<number, PartitionFacet> {
  const counted = codes.map((code) => [code, counter.result(code, depth)] as const);
  const spelled = partition.spellings(counted.flatMap(([, facet]) => facet.top.map((t) => t.id)));
  const facets = new Map<number, PartitionFacet>();
  for (const [code, facet] of counted) {
    facets.set(code, {
      top: facet.top.flatMap(({ id, count }) => {
        const term = spelled.get(id);
        return term ? [{ key: term.key, value: term.value ?? term.key, count }] : [];
      }),
      otherCount: facet.otherCount,
      truncated: facet.truncated,
    });
  }
  return facets;
}

/** Per field code, one more than the largest term sequence number in this index. */
function fieldSizes(partition: ArticlePartition, codes: readonly number[]): Map<number, number> {
  const max = partition.statements.get("SELECT max(id) FROM terms WHERE field = ?").pluck();
  return new Map(codes.map((code) => [code, Math.floor(((max.get(code) as number | null) ?? -1) / 32) + 1]));
}

function wholeIndexFacet(partition: ArticlePartition, code: number, depth: number): PartitionFacet {
  const top = partition.statements
    .get(
      "SELECT key, coalesce(value, key) AS value, docs AS count FROM terms WHERE field = ? AND docs > 0 ORDER BY docs DESC, id LIMIT ?",
    )
    .all(code, depth + 1) as PartitionFacet["top"];
  const all = partition.statements.get("SELECT coalesce(sum(docs), 0) FROM terms WHERE field = ?").pluck().get(code) as number;
  const truncated = top.length > depth;
  if (truncated) top.pop();
  return { top, otherCount: all - top.reduce((sum, t) => sum + t.count, 0), truncated };
}
