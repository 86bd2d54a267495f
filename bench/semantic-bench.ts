// The semantic benchmark (issue 15), on the scale bench's generated corpus
// (default 1,000,000 articles over 6 months, built from the real sample):
//
//   model       RSS of a process with the model loaded, and embedding
//               throughput (articles/s) on the corpus's own texts
//   backfill    the corpus's vectors: embedding 1M articles one by one takes
//               hours on 2 cores, and the corpus recombines ~1,360 real pages
//               with their events' names, so each distinct text is embedded
//               once and its vector stored for every article carrying it (the
//               same table and marker the embedding stage writes)
//   queries     semantic, hybrid, filtered and /similar, in-process through
//               the services the API runs (the index reads on the read pool),
//               p50 / p99; and recall@10 against an exact brute-force scan of
//               every vector matching the same filters
//
//   flock /tmp/newsindex-bench.lock npm run bench:semantic [-- --articles 1000000 --months 6 --seconds 5 --reuse]
//
// Rewrites its own section of bench/RESULTS.md. Data under bench/.data/.

import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { OnnxEmbedder } from "../src/adapters/onnx/onnx-embedder.js";
import { ParallelEmbedder } from "../src/adapters/onnx/parallel-embedder.js";
import { SHIPPED_MODEL_DIR } from "../src/adapters/onnx/shipped-model.js";
import { MODEL_KEY, toBlob, toVector, VECTORS_SCHEMA } from "../src/adapters/sqlite/partition-vectors.js";
import { loadConfig } from "../src/config/config.js";
import { createContainer } from "../src/container.js";
import type { ArticleDetail } from "../src/domain/article.js";
import { embeddingText } from "../src/domain/embedding-text.js";
import { parseKeywordQuery } from "../src/domain/keyword-query.js";
import { PLANS } from "../src/domain/plans.js";
import type { ArticleFilters } from "../src/domain/search-query.js";
import { semanticText } from "../src/domain/semantic-query.js";
import { searchByMeaning } from "../src/usecases/search/search-by-meaning.js";
import { SIMILAR_DEPTH, similarArticles } from "../src/usecases/search/similar-articles.js";
import { EMBED_STEP } from "../src/usecases/embedding/embedding-catch-up.js";
import { generateCorpus } from "./corpus/generate-corpus.js";
import { loadAverage, machine, summarise, timeCalls, type Latency } from "./scale/measure.js";
import { decodeDoc } from "../src/adapters/sqlite/doc-codec.js";
import { benchOptions } from "./scale/bench-options.js";
import { writeSection } from "./scale/results-file.js";
import { ingestPass } from "./scale/run-ingest.js";

const args = benchOptions();
const { articles: ARTICLES, months: MONTHS, seconds: SECONDS, dataDir: DATA } = args;
const BATCH = 64;

const QUERIES: Array<{ name: string; q: string; mode: "semantic" | "hybrid"; filters?: ArticleFilters }> = [
  { name: "semantic, paraphrase", q: "gunfire at a neighbourhood celebration in Maryland", mode: "semantic" },
  { name: "semantic, broad", q: "police", mode: "semantic" },
  { name: "semantic + language filter", q: "elections and voters", mode: "semantic", filters: { language: "fra" } },
  { name: "semantic + broad filter", q: "elections and voters", mode: "semantic", filters: { language: "eng" } },
  { name: "semantic + person filter", q: "state visit", mode: "semantic", filters: { person: "joe biden" } },
  { name: "hybrid", q: "baltimore shooting", mode: "hybrid" },
  { name: "hybrid, paraphrase", q: "gunfire at a neighbourhood celebration in Maryland", mode: "hybrid" },
];

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  const model = await modelFigures();
  console.error(`model: ${JSON.stringify(model)}`);

  const corpusDir = join(DATA, `corpus-${ARTICLES}`);
  const corpus = await generateCorpus({ articles: ARTICLES, firstMonth: "2024-01", months: MONTHS, outDir: corpusDir, seed: 1 });
  const dataDir = join(DATA, `semantic-${corpus.key}`);
  const ready = join(dataDir, "EMBEDDED.json");
  let backfill: Backfill;
  // An index of this corpus already ingested (BENCH-CORPUS.json holds its key: a copy of another bench's clustered
  // ingest will do) is embedded without ingesting again.
  const ingested = join(dataDir, "BENCH-CORPUS.json");
  if (args.reuse && existsSync(ready)) {
    backfill = JSON.parse(readFileSync(ready, "utf8")) as Backfill;
  } else {
    if (!existsSync(ingested) || readFileSync(ingested, "utf8").trim() !== corpus.key) {
      rmSync(dataDir, { recursive: true, force: true });
      await ingestPass("clustered", corpusDir, dataDir);
      writeFileSync(ingested, corpus.key);
    }
    backfill = await embedDistinct(dataDir);
    writeFileSync(ready, JSON.stringify(backfill));
  }
  console.error(`backfill: ${JSON.stringify(backfill)}`);
  const graphs = await buildGraphs(dataDir);
  console.error(`graphs: ${JSON.stringify(graphs)}`);

  const container = createContainer(loadConfig({}, { dataDir, logLevel: "silent", embedInServer: false }));
  // The same index with the graphs never used: the exact scan of every filter match (newest 100,000 per month).
  const exact = createContainer(loadConfig({}, { dataDir, logLevel: "silent", embedInServer: false, annMinMatches: 1e12 }));
  const rows: string[] = [];
  const breakdown: string[] = [];
  try {
    const plan = PLANS.archive;
    for (const query of QUERIES) {
      const request = {
        keywords: parseKeywordQuery(query.q),
        mode: query.mode,
        text: query.q,
        filters: query.filters ?? {},
        offset: 0,
        limit: 10,
        view: "full" as const,
      };
      const run = (): Promise<unknown> => searchByMeaning(container.index, container.embedder, request, plan, Date.now());
      const latency = await timeCalls(run, SECONDS);
      const recall = await recallAt10(dataDir, container, exact, query.q, query.filters ?? {});
      const body = (
        (await searchByMeaning(container.index, container.embedder, request, plan, Date.now())) as {
          body: { total: number; partial: boolean };
        }
      ).body;
      rows.push(
        row(
          query.name,
          `/search?q=${encodeURIComponent(query.q)}&mode=${query.mode}${filterQuery(query.filters)}`,
          body.total,
          latency,
          recall,
          body.partial,
        ),
      );
      console.error(rows.at(-1));
      if (query.name === "semantic, paraphrase") {
        const scan = (): Promise<unknown> => searchByMeaning(exact.index, exact.embedder, request, plan, Date.now());
        rows.push(
          row(
            `${query.name}, exact scan (no graph)`,
            rows.at(-1)?.split("|")[2]?.trim().replace(/`/g, "") ?? "",
            ((await scan()) as { body: { total: number } }).body.total,
            await timeCalls(scan, SECONDS),
            undefined,
            false,
          ),
        );
        console.error(rows.at(-1));
      }
    }
    // Where the paraphrase row's time goes: the query's embedding, then the indexes' nearest articles alone.
    const paraphrase = QUERIES[0]?.q as string;
    const text = semanticText(paraphrase);
    const embedOnly = await timeCalls(() => container.embedder.embed([text], "query"), SECONDS);
    const [vector] = await container.embedder.embed([text], "query");
    const nearOnly = (c: typeof container) =>
      timeCalls(
        () => c.index.nearest({ vector: vector as Float32Array, model: c.embedder.model, filters: {}, k: 1000 }),
        SECONDS,
      );
    const graphNear = await nearOnly(container);
    const exactNear = await nearOnly(exact);
    breakdown.push(
      `Breakdown of the paraphrase row (p50, ms): embedding the query ${embedOnly.p50.toFixed(1)}; the six indexes' 1,000 nearest, graphs ${graphNear.p50.toFixed(1)} (exact scan ${exactNear.p50.toFixed(1)}); the rest (merge, the page's documents) is the difference to the row's p50.`,
    );
    console.error(breakdown.at(-1));
    const seed = (
      await container.index.search({ keywords: parseKeywordQuery("baltimore shooting"), filters: {}, offset: 0, limit: 1 })
    ).hits[0]?.article.id as string;
    const similar = (): Promise<unknown> =>
      similarArticles(container.index, container.embedder, { id: seed, limit: 10, view: "full" }, plan, Date.now());
    const latency = await timeCalls(similar, SECONDS);
    const body = (await similar()) as { total: number; partial: boolean };
    rows.push(row("/similar", `/similar/${seed}`, body.total, latency, undefined, body.partial));
    console.error(rows.at(-1));
    breakdown.push(await similarBreakdown(container, seed));
    console.error(breakdown.at(-1));
    // Seeds whose stories are smaller (the first one's is among the corpus's largest).
    for (const q of ["verstappen", "nightclub fire"]) {
      const other = (await container.index.search({ keywords: parseKeywordQuery(q), filters: {}, offset: 0, limit: 1 })).hits[0]
        ?.article;
      if (other === undefined) continue;
      const members = (await container.index.search({ filters: { story_id: other.story_id ?? other.id }, offset: 0, limit: 1 }))
        .total;
      const run = (): Promise<unknown> =>
        similarArticles(container.index, container.embedder, { id: other.id, limit: 10, view: "full" }, plan, Date.now());
      const took = await timeCalls(run, SECONDS);
      const answer = (await run()) as { total: number; partial: boolean };
      rows.push(
        row(
          `/similar, seed story of ${members.toLocaleString("en")}`,
          `/similar/${other.id}`,
          answer.total,
          took,
          undefined,
          answer.partial,
        ),
      );
      console.error(rows.at(-1));
    }
  } finally {
    await container.close();
    await exact.close();
  }

  const body = `# Semantic ranking

Machine: ${machine()}. Load average before / after the run (1, 5, 15 min): ${loadBefore} → ${loadAverage()}.
Command: \`flock /tmp/newsindex-bench.lock npm run bench:semantic -- --articles ${ARTICLES} --months ${MONTHS} --seconds ${SECONDS}\`.

Model: ${model.name} (int8 ONNX, one intra-op thread). RSS of a fresh process: ${model.rssBeforeMiB} MiB before loading it, **${model.rssLoadedMiB} MiB** with it loaded and a batch embedded (+${model.rssLoadedMiB - model.rssBeforeMiB} MiB).
Embedding throughput, on the corpus's own texts (headline + up to 13 entity names, \`passage: \` prefix), steps of ${EMBED_STEP} grouped by token length, as many model sessions as \`NEWSINDEX_EMBEDDING_THREADS\` (${loadConfig({}).embeddingThreads}): **${backfill.perSecond} articles/s** (${backfill.distinct.toLocaleString("en")} distinct texts in ${backfill.seconds.toFixed(0)} s; the stage's rate, \`newsindex embed\`; the configurations compared in "Embedding on every core").

Corpus: ${corpus.articles.toLocaleString("en")} articles (the scale bench's, ${corpus.headlines}). Their ${backfill.articles.toLocaleString("en")} embedding texts hold ${backfill.distinct.toLocaleString("en")} distinct ones: each was embedded once and its vector stored for every article carrying it (${backfill.storeSeconds.toFixed(0)} s to store ${backfill.articles.toLocaleString("en")} vectors).

Nearest-neighbour graphs (usearch HNSW, float32, inner product, M 32, one per monthly index, \`newsindex embed\`'s rebuild with ${graphs.threads} threads): the vectors of ${graphs.vectors.toLocaleString("en")} articles, ${graphs.nodes.toLocaleString("en")} of them distinct (the graphs' nodes; equal vectors are one node, the copies listed beside it), in ${graphs.seconds.toFixed(0)} s, ${graphs.mib.toLocaleString("en")} MiB of files, mapped read-only by the read threads.

In-process through the services the API runs (query embedding included), ${SECONDS} s per query, ms. Recall@10: the semantic top 10 (for hybrid rows, its semantic half) against an exact brute-force scan of every stored vector matching the same filters; an article scoring as high as the exact 10th counts as a hit (the corpus repeats each text hundreds of times, so many articles tie).

| query | path | total | p50 / p99 | recall@10 | partial |
|---|---|---:|---:|---:|---|
${rows.join("\n")}

${breakdown.join("\n")}
`;
  writeSection(args.out, "semantic", body);
  console.error(body);
}

/**
 * Where the /similar row's time goes: the seed's own story (its members are left out, so each index is asked for
 * that many more neighbours), the seed's vector, and the nearest articles with and without leaving the story out.
 */
async function similarBreakdown(container: ReturnType<typeof createContainer>, seed: string): Promise<string> {
  const model = container.embedder.model;
  const found = await container.index.vectorOf(seed, model);
  if (found.status !== "found" || found.vector === null) return `/similar: the seed ${seed} has no vector (${found.status}).`;
  const { vector, story_id } = found;
  const story = story_id ?? seed;
  const members = (await container.index.search({ filters: { story_id: story }, offset: 0, limit: 1 })).total;
  const lookup = await timeCalls(() => container.index.vectorOf(seed, model), SECONDS);
  const near = (excludeStory?: string) => () =>
    container.index.nearest({ vector, model, filters: {}, k: SIMILAR_DEPTH, ...(excludeStory ? { excludeStory } : {}) });
  // Alternated call by call, so the machine's other load weighs on both alike.
  const [excluding, keeping] = (await timeAlternately([near(story), near()], SECONDS)) as [Latency, Latency];
  return `Breakdown of the /similar row (p50, ms): the seed's story has ${members.toLocaleString("en")} articles, left out of the ${SIMILAR_DEPTH} nearest; the seed's vector ${lookup.p50.toFixed(1)}; the six indexes' ${SIMILAR_DEPTH} nearest leaving its story out ${excluding.p50.toFixed(1)} (p99 ${excluding.p99.toFixed(1)}), keeping it ${keeping.p50.toFixed(1)}; the rest (the seed's document, one per story, the page's documents) is the difference to the row's p50.`;
}

/** Runs the calls in turn for about `seconds` (after a short warm-up), each timed in ms. */
async function timeAlternately(calls: ReadonlyArray<() => Promise<unknown>>, seconds: number): Promise<Latency[]> {
  for (const call of calls) for (let i = 0; i < 5; i++) await call();
  const samples = calls.map((): number[] => []);
  const end = performance.now() + seconds * 1000 * calls.length;
  while (performance.now() < end) {
    for (const [i, call] of calls.entries()) {
      const t = performance.now();
      await call();
      samples[i]?.push(performance.now() - t);
    }
  }
  return samples.map(summarise);
}

interface Graphs {
  vectors: number;
  /** Distinct vectors: the graphs' nodes (copies are listed beside them). */
  nodes: number;
  seconds: number;
  mib: number;
  threads: number;
}

/** Each monthly index's graph, rebuilt from its stored vectors by the embedding stage (what `newsindex embed` does). */
async function buildGraphs(dataDir: string): Promise<Graphs> {
  const dir = join(dataDir, "index");
  for (const f of readdirSync(dir).filter((f) => /\.ann(\.json)?$/.test(f))) rmSync(join(dir, f));
  const container = createContainer(loadConfig({}, { dataDir, logLevel: "silent", embedInServer: false }));
  const threads = 2;
  const stage = container.embeddingStage({ indexThreads: threads });
  const started = performance.now();
  let vectors = 0;
  try {
    for (const { month } of await stage.backlog()) {
      const t = performance.now();
      const added = await stage.indexVectors(month);
      vectors += added;
      console.error(`  graph ${month}: ${added} vectors in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
  } finally {
    await container.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const bytes = readdirSync(dir)
    .filter((f) => f.endsWith(".ann") || f.endsWith(".ann.dup"))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
  const nodes = readdirSync(dir)
    .filter((f) => f.endsWith(".ann.json"))
    .reduce((sum, f) => sum + (JSON.parse(readFileSync(join(dir, f), "utf8")) as { vectors: number }).vectors, 0);
  return { vectors, nodes, seconds, mib: Math.round(bytes / 1048576), threads };
}

interface ModelFigures {
  name: string;
  rssBeforeMiB: number;
  rssLoadedMiB: number;
}

async function modelFigures(): Promise<ModelFigures> {
  const rssBeforeMiB = Math.round(process.memoryUsage().rss / 1048576);
  const embedder = await OnnxEmbedder.load(SHIPPED_MODEL_DIR);
  await embedder.embed(
    Array.from({ length: BATCH }, (_, i) => `Senate votes down spending bill ${i}`),
    "passage",
  );
  const rssLoadedMiB = Math.round(process.memoryUsage().rss / 1048576);
  await embedder.close();
  return { name: embedder.model, rssBeforeMiB, rssLoadedMiB };
}

interface Backfill {
  articles: number;
  distinct: number;
  seconds: number;
  perSecond: number;
  storeSeconds: number;
}

/** Embeds each distinct text of the index once and stores its vector for every article carrying it. */
async function embedDistinct(dataDir: string): Promise<Backfill> {
  const dir = join(dataDir, "index");
  const months = readdirSync(dir).filter((f) => /^articles-\d{6}\.db$/.test(f));
  const texts = new Map<string, Array<[string, number]>>();
  let articles = 0;
  for (const file of months) {
    const db = new Database(join(dir, file), { readonly: true });
    for (const row of db.prepare("SELECT a.rowid, d.doc FROM articles a JOIN docs d ON d.rowid = a.rowid").iterate() as Iterable<{
      rowid: number;
      doc: Buffer;
    }>) {
      const text = embeddingText(JSON.parse(decodeDoc(row.doc)) as ArticleDetail);
      let carriers = texts.get(text);
      if (!carriers) texts.set(text, (carriers = []));
      carriers.push([file, row.rowid]);
      articles++;
    }
    db.close();
  }
  console.error(`${articles} articles, ${texts.size} distinct texts`);
  // As the embedding stage embeds: its sessions (one per core by default) and its step.
  const embedder = await ParallelEmbedder.load(SHIPPED_MODEL_DIR, loadConfig({}).embeddingThreads);
  const distinct = [...texts.keys()].filter((t) => t !== "");
  const vectors = new Map<string, Float32Array>();
  const started = performance.now();
  for (let at = 0; at < distinct.length; at += EMBED_STEP) {
    const batch = distinct.slice(at, at + EMBED_STEP);
    const out = await embedder.embed(batch, "passage");
    batch.forEach((t, i) => vectors.set(t, out[i] as Float32Array));
    if (at % (EMBED_STEP * 20) === 0) console.error(`  embedded ${at + batch.length}/${distinct.length}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const modelName = embedder.model;
  await embedder.close();
  const storing = performance.now();
  const byFile = new Map<string, Array<[number, Float32Array | null]>>();
  for (const [text, carriers] of texts) {
    const vector = vectors.get(text) ?? null;
    for (const [file, rowid] of carriers) {
      let list = byFile.get(file);
      if (!list) byFile.set(file, (list = []));
      list.push([rowid, vector]);
    }
  }
  for (const [file, list] of byFile) {
    const db = new Database(join(dir, file));
    db.exec(VECTORS_SCHEMA);
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(MODEL_KEY, modelName);
    const insert = db.prepare("INSERT OR REPLACE INTO article_vectors (rowid, embedding) VALUES (?, ?)");
    list.sort((a, b) => a[0] - b[0]);
    db.transaction(() => {
      for (const [rowid, vector] of list) insert.run(rowid, vector === null ? null : toBlob(vector));
    })();
    db.close();
  }
  return {
    articles,
    distinct: distinct.length,
    seconds,
    perSecond: Math.round(distinct.length / seconds),
    storeSeconds: (performance.now() - storing) / 1000,
  };
}

/**
 * Overlap of the semantic top 10 with an exact answer on the same candidates: with no filter, a brute-force scan of
 * every stored vector; with filters, the exact scan of every filter match (`exact`, the graphs never used).
 */
async function recallAt10(
  dataDir: string,
  container: ReturnType<typeof createContainer>,
  exact: ReturnType<typeof createContainer>,
  q: string,
  filters: ArticleFilters,
): Promise<number> {
  const [vector] = await container.embedder.embed([semanticText(q)], "query");
  if (!vector) return 0;
  const got = await container.index.nearest({ vector, model: container.embedder.model, filters, k: 10 });
  let best: Array<{ id: string; score: number }> = [];
  if (Object.keys(filters).length > 0) {
    best = (await exact.index.nearest({ vector, model: container.embedder.model, filters, k: 10 })).hits;
  } else {
    const dir = join(dataDir, "index");
    for (const file of readdirSync(dir).filter((f) => /^articles-\d{6}\.db$/.test(f))) {
      const db = new Database(join(dir, file), { readonly: true });
      const rows = db
        .prepare(
          "SELECT a.id, v.embedding FROM article_vectors v JOIN articles a ON a.rowid = v.rowid WHERE v.embedding IS NOT NULL",
        )
        .iterate() as Iterable<{ id: string; embedding: Buffer }>;
      for (const row of rows) {
        const v = toVector(row.embedding);
        let score = 0;
        for (let d = 0; d < v.length; d++) score += (v[d] as number) * (vector[d] as number);
        if (best.length < 10 || score > (best[9] as { score: number }).score) {
          best.push({ id: row.id, score });
          best.sort((a, b) => b.score - a.score);
          best.length = Math.min(best.length, 10);
        }
      }
      db.close();
    }
  }
  const truth = new Set(best.map((b) => b.id));
  // Ties (the corpus repeats texts) make several equally exact answers: a hit scoring as high as the 10th counts.
  const floor = best[best.length - 1]?.score ?? 1;
  const found = got.hits.filter((h) => truth.has(h.id) || h.score >= floor - 1e-6).length;
  return Math.min(1, found / Math.max(1, best.length));
}

function row(name: string, path: string, total: number, latency: Latency, recall: number | undefined, partial: boolean): string {
  return `| ${name} | \`${path}\` | ${total} | ${latency.p50.toFixed(1)} / ${latency.p99.toFixed(1)} | ${recall === undefined ? "" : recall.toFixed(2)} | ${partial} |`;
}

function filterQuery(filters: ArticleFilters | undefined): string {
  return Object.entries(filters ?? {})
    .map(([k, v]) => `&${k}=${encodeURIComponent(String(v))}`)
    .join("");
}

await main();
