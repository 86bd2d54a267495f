// Where a keyword search's time goes in each monthly index: the stages the
// read thread runs for /search?q=... (partition-reads.ts, job "search"), each
// timed alone on the calling thread, median of --runs, warm.
//
//   node --import tsx bench/scale/profile-keyword.ts --index bench/.data/index-1000000 --q "baltimore shooting"

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ArticlePartition } from "../../src/adapters/sqlite/article-partition.js";
import { FTS_SCORE } from "../../src/adapters/sqlite/bm25.js";
import { scoredPhrases, toFtsMatch } from "../../src/adapters/sqlite/fts-match.js";
import { PARTITION_FILE } from "../../src/adapters/sqlite/catalog/partition-catalog.js";
import { rankFeatures, rankStats } from "../../src/adapters/sqlite/partition-ranking.js";
import { candidates, countMatches } from "../../src/adapters/sqlite/partition-search.js";
import { parseKeywordQuery } from "../../src/domain/keyword-query.js";

const { values: args } = parseArgs({
  options: {
    index: { type: "string", default: "bench/.data/index-1000000" },
    q: { type: "string", default: "baltimore shooting" },
    runs: { type: "string", default: "21" },
    n: { type: "string", default: "30" },
  },
});
const RUNS = Number(args.runs);
const N = Number(args.n);
const keywords = parseKeywordQuery(args.q as string);
if (keywords === undefined) throw new Error("no keywords in --q");
const match = toFtsMatch(keywords);
const phrases = scoredPhrases(keywords);

function median(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
}

const dir = join(args.index as string, "index");
const months = readdirSync(dir)
  .flatMap((name) => PARTITION_FILE.exec(name)?.[1] ?? [])
  .sort()
  .reverse();
console.log(`q=${JSON.stringify(args.q)} match=${match} phrases=${phrases.length}; median of ${RUNS} runs, ms`);
console.log(
  "| month | articles | matches | count pass | rank pass (bm25 of every match) | iterate matches, no score | rank stats | features | sum of stages |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
const totals = [0, 0, 0, 0, 0, 0];
for (const month of months) {
  const partition = new ArticlePartition(month, join(dir, `articles-${month}.db`), { create: false });
  const { count, bounds } = partition.stats();
  const search = { match, terms: [], ranges: [], articles: count, newest: bounds?.newest ?? "" };
  const matches = countMatches(partition, search);
  const countMs = median(() => countMatches(partition, search));
  const rankMs = median(() => candidates(partition, search, N));
  const bare = partition.statements.get("SELECT rowid FROM articles_fts WHERE articles_fts MATCH ?").pluck();
  const iterateMs = median(() => bare.all(match));
  const stats = rankStats(partition, phrases);
  const statsMs = median(() => rankStats(partition, phrases));
  const hits = candidates(partition, search, N);
  const featuresMs = median(() => rankFeatures(partition, hits, phrases, stats, match));
  const sum = countMs + rankMs + statsMs + featuresMs;
  [countMs, rankMs, iterateMs, statsMs, featuresMs, sum].forEach((t, i) => (totals[i] = (totals[i] ?? 0) + t));
  const f = (t: number): string => t.toFixed(2);
  console.log(
    `| ${month} | ${count} | ${matches} | ${f(countMs)} | ${f(rankMs)} | ${f(iterateMs)} | ${f(statsMs)} | ${f(featuresMs)} | ${f(sum)} |`,
  );
  partition.db.close();
}
console.log(`| all | | | ${totals.map((t) => t.toFixed(2)).join(" | ")} |`);
console.log(`(score expression: ${FTS_SCORE})`);
