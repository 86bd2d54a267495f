import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { parseArgs } from "node:util";
import pg from "pg";
import { GkgArticleSource } from "../src/adapters/gdelt/gkg-source.js";
import { PostgresStoryStore } from "../src/adapters/postgres/story-store.js";
import { SqliteStoryStore } from "../src/adapters/sqlite/story-store.js";
import { storyFeatures, type StoryFeatures } from "../src/domain/stories/story-features.js";
import type { StoryStore } from "../src/ports/story-store.js";
import { StoryClusterer } from "../src/usecases/stories/story-clusterer.js";
import { loadAverage, machine } from "./scale/measure.js";

// Story clustering alone (parsing and deriving the features excluded), as
// ingest runs it: batches of --batch articles in collection order, each
// clustered in order by StoryClusterer.addFeaturesInOrder on the ingest's own
// thread, over stories.db (SQLite) and over the PostgreSQL store, alternately
// --rounds times on the same articles, each time into a new state. A second
// pass over the same articles (a re-ingest: every article found clustered) is
// timed apart. Each round also runs both stores allowed to hold only
// --max-held articles in memory, fewer than the days a batch looks around hold,
// as at GDELT's full rate (100,000 or more a day): SQLite then counts each
// article's candidates in SQL, PostgreSQL each batch's in one statement.
//
//   flock /tmp/newsindex-bench.lock nice -n 5 node --import tsx bench/stories-clustering-bench.ts \
//     --articles 40000 --batch 2000 --rounds 2 [--corpus bench/.data/corpus-95000] [--url postgres://...]

const { values } = parseArgs({
  options: {
    articles: { type: "string", default: "40000" },
    batch: { type: "string", default: "2000" },
    rounds: { type: "string", default: "2" },
    corpus: { type: "string", default: new URL(".data/corpus-95000", import.meta.url).pathname },
    url: { type: "string", default: "postgres://postgres@127.0.0.1:5432/test" },
    "max-held": { type: "string", default: "1000" },
  },
});
const total = Number(values.articles);
const batchSize = Number(values.batch);
const rounds = Number(values.rounds);
const url = values.url;
const maxHeld = Number(values["max-held"]);

const source = await GkgArticleSource.create();
const features: StoryFeatures[] = [];
for (const file of readdirSync(values.corpus)
  .filter((f) => f.endsWith(".gkg.csv.gz"))
  .sort()) {
  for await (const record of source.read(join(values.corpus, file))) {
    if (record.ok) features.push(storyFeatures(record.article));
    if (features.length >= total) break;
  }
  if (features.length >= total) break;
}
const batches: StoryFeatures[][] = [];
for (let i = 0; i < features.length; i += batchSize) batches.push(features.slice(i, i + batchSize));

/** Seconds to cluster every batch, then to cluster them all again, and the stories of two articles or more. */
async function timed(open: () => Promise<StoryStore>): Promise<{ first: number; again: number; stories: number }> {
  const seconds = [0, 0];
  for (const pass of [0, 1]) {
    const store = await open();
    const clusterer = new StoryClusterer(store);
    const started = performance.now();
    for (const batch of batches) {
      await clusterer.addFeaturesInOrder(batch);
      // What ingest does between batches (the index write): stories.db commits once the caller yields.
      await nextTurn();
    }
    await store.close();
    seconds[pass] = (performance.now() - started) / 1000;
  }
  const store = await open();
  const sizes = new Map<string, number>();
  await store.clusterBatch([], async () => {
    for (const f of features) {
      const story = await store.storyOf(f.id);
      sizes.set(story, (sizes.get(story) ?? 0) + 1);
    }
  });
  await store.close();
  return { first: seconds[0] as number, again: seconds[1] as number, stories: [...sizes.values()].filter((n) => n > 1).length };
}

async function sqlite(held?: number): Promise<{ first: number; again: number; stories: number }> {
  const dir = mkdtempSync(join(tmpdir(), "newsindex-cluster-bench-"));
  try {
    return await timed(async () => new SqliteStoryStore(join(dir, "stories.db"), held));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(held?: number): Promise<{ first: number; again: number; stories: number }> {
  const schema = `newsindex_bench_${randomBytes(6).toString("hex")}`;
  try {
    return await timed(() => PostgresStoryStore.open(url, schema, held));
  } finally {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

console.log(`${machine()}`);
console.log(`${features.length} articles from ${values.corpus}, batches of ${batchSize}`);
console.log("| round | store | records/s (first pass) | records/s (re-ingest) | stories of 2+ | load average |");
console.log("|---:|---|---:|---:|---:|---|");
for (let round = 1; round <= rounds; round++) {
  for (const [name, run] of [
    ["SQLite (stories.db)", () => sqlite()],
    ["PostgreSQL", () => postgres()],
    [`SQLite, ${maxHeld.toLocaleString("en-US")} held`, () => sqlite(maxHeld)],
    [`PostgreSQL, ${maxHeld.toLocaleString("en-US")} held`, () => postgres(maxHeld)],
  ] as const) {
    const result = await run();
    const rate = (s: number): string => Math.round(features.length / s).toLocaleString("en-US");
    console.log(`| ${round} | ${name} | ${rate(result.first)} | ${rate(result.again)} | ${result.stories} | ${loadAverage()} |`);
  }
}
