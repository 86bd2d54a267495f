// Facet counting in each monthly index, from the doc values held in memory
// (facet-doc-values.ts) against reading every match's `terms` blob from its
// row (how facets were counted before): median of --runs, warm, one thread;
// and what holding the doc values costs: the first call, which reads them,
// and the bytes held.
//
//   node --import tsx bench/scale/profile-facets.ts --index bench/.data/index-1000000 --q "baltimore shooting" --facets source,person,topic

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ArticlePartition } from "../../src/adapters/sqlite/article-partition.js";
import { PARTITION_FILE } from "../../src/adapters/sqlite/catalog/partition-catalog.js";
import { FacetCounter } from "../../src/adapters/sqlite/facet-counter.js";
import { docValuesBytes } from "../../src/adapters/sqlite/facet-doc-values.js";
import { toFtsMatch } from "../../src/adapters/sqlite/fts-match.js";
import { matchSet, type Params, type PartitionSearch } from "../../src/adapters/sqlite/match-conditions.js";
import { countFacets } from "../../src/adapters/sqlite/partition-facets.js";
import { facetFields } from "../../src/app/requests/search-params.js";
import { FILTER_FIELDS } from "../../src/domain/filter-fields.js";
import { parseKeywordQuery } from "../../src/domain/keyword-query.js";

const { values: args } = parseArgs({
  options: {
    index: { type: "string", default: "bench/.data/index-1000000" },
    q: { type: "string", default: "baltimore shooting" },
    facets: { type: "string", default: "source,person,topic" },
    runs: { type: "string", default: "11" },
  },
});
const RUNS = Number(args.runs);
const keywords = parseKeywordQuery(args.q as string);
if (keywords === undefined) throw new Error("no keywords in --q");
const match = toFtsMatch(keywords);
const codes = facetFields(args.facets as string).map((field) => FILTER_FIELDS[field].code);

function timed(run: () => unknown): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function median(run: () => unknown): number {
  const times = Array.from({ length: RUNS }, () => timed(run));
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
}

/** The count as it was made before doc values were held: every match's blob read from its row. */
function fromRows(partition: ArticlePartition, search: PartitionSearch): number {
  const params: Params = {};
  const max = partition.statements.get("SELECT max(id) FROM terms WHERE field = ?").pluck();
  const counter = new FacetCounter(new Map(codes.map((c) => [c, Math.floor(((max.get(c) as number | null) ?? -1) / 32) + 1])));
  let total = 0;
  for (const blob of partition.statements
    .get(matchSet(search, params, "a.terms"))
    .pluck()
    .iterate(params) as Iterable<Buffer>) {
    counter.add(blob);
    total++;
  }
  for (const code of codes) counter.result(code, 25);
  return total;
}

const dir = join(args.index as string, "index");
const months = readdirSync(dir)
  .flatMap((name) => PARTITION_FILE.exec(name)?.[1] ?? [])
  .sort()
  .reverse();
console.log(`q=${JSON.stringify(args.q)} facets=${args.facets}; median of ${RUNS} runs, ms`);
console.log("| month | articles | matches | from the rows | from doc values held | first call (reads them) | MB held |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
const totals = [0, 0, 0, 0];
let articles = 0;
for (const month of months) {
  const partition = new ArticlePartition(month, join(dir, `articles-${month}.db`), { create: false });
  const { count, bounds } = partition.stats();
  articles += count;
  const search: PartitionSearch = { match, terms: [], ranges: [], articles: count, newest: bounds?.newest ?? "" };
  const firstMs = timed(() => countFacets(partition, search, codes, 25));
  const heldMs = median(() => countFacets(partition, search, codes, 25));
  const rowsMs = median(() => fromRows(partition, search));
  const matches = countFacets(partition, search, codes, 25).total;
  const mb = docValuesBytes(partition) / 2 ** 20;
  [rowsMs, heldMs, firstMs, mb].forEach((t, i) => (totals[i] = (totals[i] ?? 0) + t));
  const f = (t: number): string => t.toFixed(2);
  console.log(`| ${month} | ${count} | ${matches} | ${f(rowsMs)} | ${f(heldMs)} | ${f(firstMs)} | ${f(mb)} |`);
  partition.db.close();
}
console.log(`| all | ${articles} | | ${totals.map((t) => t.toFixed(2)).join(" | ")} |`);
console.log(`doc values held: ${(((totals[3] ?? 0) * 2 ** 20) / articles).toFixed(1)} bytes per article for ${args.facets}`);
