// Evaluates LanceDB's full-text index (BM25) as the embedded engine for keyword
// search, on the same articles and queries as the 1M bench: the documents of
// an index `npm run bench` built (bench/.data/index-N), loaded into one
// LanceDB table with an FTS index on the title and on the entity names, and
// queried in-process beside NewsIndex's own engine (IndexBackend.search).
// Not part of `npm test` or `npm run bench`: LanceDB is not a dependency
// (about 160 MB installed). Install it first, without saving:
//
//   npm i --no-save @lancedb/lancedb@0.31.0 apache-arrow@18
//   node --import tsx bench/engines/lancedb-eval.ts --index bench/.data/index-1000000 --seconds 3
//
// Every word must match (our keyword semantics): each word is a must-clause
// over both columns, the title boosted 10 to 1 as in FTS5's bm25 weights.

import Database from "better-sqlite3";
import { readdirSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SqliteIndexBackend } from "../../src/adapters/sqlite/sqlite-index-backend.js";
import { PARTITION_FILE } from "../../src/adapters/sqlite/catalog/partition-catalog.js";
import { parseKeywordQuery, wordsOf } from "../../src/domain/keyword-query.js";
import { decodeDoc } from "../../src/adapters/sqlite/doc-codec.js";
import { bytesUnder } from "../scale/disk-usage.js";
import { timeCalls } from "../scale/measure.js";

const { values: args } = parseArgs({
  options: {
    index: { type: "string", default: "bench/.data/index-1000000" },
    seconds: { type: "string", default: "3" },
    out: { type: "string", default: "bench/.data/lancedb-eval" },
  },
});
const SECONDS = Number(args.seconds);
const QUERIES = ["baltimore shooting", "police", "climate"];

/** The parts of the LanceDB API used here (its package is not a dependency, so it is typed here). */
interface FtsQuery {
  readonly inner: unknown;
}
interface LanceQuery {
  fullTextSearch(query: FtsQuery | string): LanceQuery;
  where(predicate: string): LanceQuery;
  select(columns: string[]): LanceQuery;
  limit(n: number): LanceQuery;
  toArray(): Promise<Array<Record<string, unknown>>>;
}
interface LanceTable {
  add(rows: Array<Record<string, unknown>>): Promise<unknown>;
  createIndex(column: string, options: { config: unknown }): Promise<void>;
  query(): LanceQuery;
}
interface LanceModule {
  connect(uri: string): Promise<{ createTable(name: string, rows: Array<Record<string, unknown>>): Promise<LanceTable> }>;
  Index: { fts(options: Record<string, unknown>): unknown };
  MultiMatchQuery: new (query: string, columns: string[], options: { boosts: number[] }) => FtsQuery;
  BooleanQuery: new (clauses: Array<[string, FtsQuery]>) => FtsQuery;
  Occur: { Must: string };
}

async function loadLance(): Promise<LanceModule> {
  // Left to size its compute pool itself, LanceDB 0.31 never finished building an FTS index on this 2-core machine
  // (the build waited with no CPU used); sized to the cores, it builds.
  process.env.LANCE_CPU_THREADS ??= String(availableParallelism());
  const name = "@lancedb/lancedb";
  try {
    return (await import(name)) as LanceModule;
  } catch {
    console.error("LanceDB is not installed: npm i --no-save @lancedb/lancedb@0.31.0 apache-arrow@18");
    process.exit(2);
  }
}

interface Doc {
  id: string;
  title: string | null;
  persons: string[];
  organizations: string[];
  names: string[];
  published_at: string;
}

/** Each monthly index's documents, read whole before LanceDB is given them. */
function* monthlyBatches(indexDir: string): Generator<Array<Record<string, unknown>>> {
  const dir = join(indexDir, "index");
  for (const file of readdirSync(dir).filter((f) => PARTITION_FILE.test(f))) {
    const db = new Database(join(dir, file), { readonly: true });
    const docs = (db.prepare("SELECT doc FROM docs").pluck().all() as Buffer[]).map(decodeDoc);
    db.close();
    yield docs.map((doc) => {
      const d = JSON.parse(doc) as Doc;
      return {
        id: d.id,
        title: d.title ?? "",
        entities: [...d.persons, ...d.organizations, ...d.names].join(" | "),
        published_at: d.published_at,
      };
    });
  }
}

const lance = await loadLance();
rmSync(args.out as string, { recursive: true, force: true });
const db = await lance.connect(args.out as string);
let table: LanceTable | undefined;
let rows = 0;
const loadStart = performance.now();
for (const batch of monthlyBatches(args.index as string)) {
  if (table === undefined) table = await db.createTable("articles", batch);
  else await table.add(batch);
  rows += batch.length;
  console.error(`${rows} documents loaded`);
}
if (table === undefined) throw new Error("no documents");
const articles: LanceTable = table;
const loadedMs = performance.now() - loadStart;
const indexStart = performance.now();
for (const column of ["title", "entities"]) {
  await articles.createIndex(column, {
    config: lance.Index.fts({
      withPosition: true,
      baseTokenizer: "simple",
      lowercase: true,
      asciiFolding: true,
      stem: false,
      removeStopWords: false,
    }),
  });
}
const indexedMs = performance.now() - indexStart;
console.log(
  `${rows} documents loaded in ${(loadedMs / 1000).toFixed(1)} s, FTS indexes built in ${(indexedMs / 1000).toFixed(1)} s, ${(bytesUnder(args.out as string) / 2 ** 20).toFixed(0)} MiB on disk`,
);

const ours = new SqliteIndexBackend(args.index as string, { writerThread: false });
const allWords = (q: string): FtsQuery =>
  new lance.BooleanQuery(
    wordsOf(q).map((w) => [lance.Occur.Must, new lance.MultiMatchQuery(w, ["title", "entities"], { boosts: [10, 1] })]),
  );

console.log(
  "| query | NewsIndex engine matches / p50 / p99 ms (top 10 + exact total) | LanceDB top 10 p50 / p99 ms | LanceDB every match (to count them) p50 ms, count | top-10 ids shared |",
);
console.log("|---|---|---|---|---:|");
for (const q of QUERIES) {
  const keywords = parseKeywordQuery(q);
  const search = { keywords, filters: {}, offset: 0, limit: 10 };
  const mine = await ours.search(search);
  const oursTimes = await timeCalls(() => ours.search(search), SECONDS);
  const top = (): Promise<Array<Record<string, unknown>>> =>
    articles.query().fullTextSearch(allWords(q)).select(["id"]).limit(10).toArray();
  const theirs = await top();
  const lanceTimes = await timeCalls(top, SECONDS);
  const every = (): Promise<Array<Record<string, unknown>>> =>
    articles.query().fullTextSearch(allWords(q)).select(["id"]).limit(10_000_000).toArray();
  const counted = (await every()).length;
  const countTimes = await timeCalls(every, SECONDS);
  const shared = theirs.filter((r) => mine.hits.some((h) => h.article.id === r.id)).length;
  const f = (t: number): string => t.toFixed(2);
  console.log(
    `| ${q} | ${mine.total} / ${f(oursTimes.p50)} / ${f(oursTimes.p99)} | ${f(lanceTimes.p50)} / ${f(lanceTimes.p99)} | ${f(countTimes.p50)}, ${counted} | ${shared} |`,
  );
}
await ours.close();
