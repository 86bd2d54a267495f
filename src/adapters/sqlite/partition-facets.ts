import type { PartitionFacet } from "../../domain/facets.js";
import type { ArticlePartition } from "./article-partition.js";
import { FacetCounter } from "./facet-counter.js";
import { facetDocValues, type FieldDocValues } from "./facet-doc-values.js";
import { matchedRowids, matchesWholeIndex, type Params, type PartitionSearch } from "./match-conditions.js";
import { ScanBudget } from "./scan-budget.js";

// Facets in one monthly index: exact value counts over every match, from the
// doc values held in memory (facet-doc-values.ts) for the matches' rowids, or
// from the term counts alone when every article matches.

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
  // Reading doc values not held yet takes at most half the time the query has left.
  const now = Date.now();
  const fields = facetDocValues(partition, codes, budget.deadline === undefined ? undefined : now + (budget.deadline - now) / 2);
  const params: Params = {};
  const statement = partition.statements.get(matchedRowids(search, params)).pluck();
  const rowids: number[] = [];
  // Streamed, so the budget is checked as rows come.
  for (const rowid of statement.iterate(params) as Iterable<number>) {
    // Leaving the loop ends the statement's iteration.
    if (budget.spent()) break;
    rowids.push(rowid);
  }
  return {
    total: rowids.length,
    facets: spelledFacets(partition, counted(partition, codes, fields, rowids), codes, depth),
    timedOut: budget.timedOut,
  };
}

/** Exact value counts of the fields `codes` over the given articles (by rowid) of this index. */
export function countFacetsOf(
  partition: ArticlePartition,
  rowids: readonly number[],
  codes: readonly number[],
  depth: number,
): Map<number, PartitionFacet> {
  const fields = facetDocValues(partition, codes);
  return spelledFacets(partition, counted(partition, codes, fields, rowids), codes, depth);
}

/**
 * The fields `codes` counted over the articles `rowids`: from the doc values held for those they cover, the rest
 * (written after the doc values were brought up to date: another connection committed since) from their rows.
 */
function counted(
  partition: ArticlePartition,
  codes: readonly number[],
  fields: ReadonlyMap<number, FieldDocValues>,
  rowids: readonly number[],
): FacetCounter {
  const held = Math.min(...[...fields.values()].map((field) => field.through));
  const counter = new FacetCounter(fieldSizes(partition, codes, fields));
  const inMemory = rowids.filter((rowid) => rowid <= held);
  for (const [code, field] of fields) counter.addHeld(code, field, inMemory);
  if (inMemory.length < rowids.length)
    countRows(
      partition,
      counter,
      rowids.filter((rowid) => rowid > held),
    );
  return counter;
}

/** Counts the doc values of the articles `rowids` from their rows. */
function countRows(partition: ArticlePartition, counter: FacetCounter, rowids: readonly number[]): void {
  const blobs = partition.statements
    .get("SELECT a.terms FROM json_each(?) j JOIN articles a ON a.rowid = j.value")
    .pluck()
    .iterate(JSON.stringify(rowids)) as Iterable<Buffer>;
  for (const blob of blobs) counter.add(blob);
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

/** Per field code, one more than the largest term sequence number in this index (or in its doc values held). */
function fieldSizes(
  partition: ArticlePartition,
  codes: readonly number[],
  held?: ReadonlyMap<number, FieldDocValues>,
): Map<number, number> {
  const max = partition.statements.get("SELECT max(id) FROM terms WHERE field = ?").pluck();
  return new Map(
    codes.map((code) => [
      code,
      Math.max(Math.floor(((max.get(code) as number | null) ?? -1) / 32) + 1, held?.get(code)?.seqs ?? 0),
    ]),
  );
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
