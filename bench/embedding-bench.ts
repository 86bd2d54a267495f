// Embedding throughput on every core (issue 33, item 5): the shipped model on
// the corpus's own distinct texts (headline and names, domain/embedding-text.ts),
// in texts per second and CPU per text, for one session on one intra-op thread
// (the stage before), one session on two intra-op threads, and one session per
// thread (adapters/onnx/parallel-embedder.ts), at the stage's batch sizes. The
// configurations take turns, round after round, so each sees the same machine;
// then the backfill of a month of the live feed (~5,000,000 articles) at the
// rate of the configuration the stage runs.
//
//   flock /tmp/newsindex-bench.lock npm run bench:embedding -- [--texts 1024 --rounds 3 --corpus DIR --out FILE]

import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { GkgArticleSource } from "../src/adapters/gdelt/gkg-source.js";
import { OnnxEmbedder } from "../src/adapters/onnx/onnx-embedder.js";
import { ParallelEmbedder } from "../src/adapters/onnx/parallel-embedder.js";
import { SHIPPED_MODEL_DIR } from "../src/adapters/onnx/shipped-model.js";
import { EMBED_STEP } from "../src/usecases/embedding/embedding-catch-up.js";
import { loadConfig } from "../src/config/config.js";
import { embeddingText } from "../src/domain/embedding-text.js";
import type { Embedder } from "../src/ports/embedder.js";
import { loadAverage, machine } from "./scale/measure.js";
import { writeSection } from "./scale/results-file.js";

const { values: args } = parseArgs({
  options: {
    texts: { type: "string", default: "1024" },
    rounds: { type: "string", default: "3" },
    corpus: { type: "string", default: new URL("./.data/corpus-95000", import.meta.url).pathname },
    out: { type: "string", default: new URL("./RESULTS.md", import.meta.url).pathname },
  },
});
const TEXTS = Number(args.texts);
const ROUNDS = Number(args.rounds);
/** A month of the live feed: ~15 minutes × 4 × 24 × 30 files of ~1,700 articles. */
const MONTH_OF_FEED = 5_000_000;
/** The stage's step before this bench: one session on one thread, 64 texts a step. */
const BEFORE_STEP = 64;

interface Setup {
  name: string;
  batch: number;
  load: () => Promise<Embedder>;
}

async function corpusTexts(dir: string, wanted: number): Promise<string[]> {
  const files = (JSON.parse(readFileSync(join(dir, "COMPLETE.json"), "utf8")) as { files: string[] }).files;
  const source = await GkgArticleSource.create();
  const texts = new Set<string>();
  for (const file of files) {
    for await (const record of source.read(file)) {
      if (!record.ok) continue;
      const text = embeddingText(record.article);
      if (text !== "") texts.add(text);
      if (texts.size >= wanted) return [...texts];
    }
  }
  return [...texts];
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  const texts = await corpusTexts(args.corpus, TEXTS);
  const cores = availableParallelism();
  const chosen = loadConfig({}).embeddingThreads;
  const setups: Setup[] = [];
  // 64: the stage's step before this bench; EMBED_STEP: its step now.
  for (const batch of [...new Set([BEFORE_STEP, EMBED_STEP])]) {
    setups.push(
      { name: "1 session, 1 intra-op thread", batch, load: () => OnnxEmbedder.load(SHIPPED_MODEL_DIR, { threads: 1 }) },
      {
        name: `1 session, ${cores} intra-op threads`,
        batch,
        load: () => OnnxEmbedder.load(SHIPPED_MODEL_DIR, { threads: cores }),
      },
      { name: `${cores} sessions, one per thread`, batch, load: () => ParallelEmbedder.load(SHIPPED_MODEL_DIR, cores) },
    );
  }
  const loaded = await Promise.all(setups.map((s) => s.load()));
  const perSecond = setups.map((): number[] => []);
  const cpuMs = setups.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, setup] of setups.entries()) {
      const embedder = loaded[k] as Embedder;
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let at = 0; at < texts.length; at += setup.batch) await embedder.embed(texts.slice(at, at + setup.batch), "passage");
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      perSecond[k]?.push(texts.length / seconds);
      cpuMs[k]?.push((used.user + used.system) / 1000 / texts.length);
      console.error(`round ${round + 1}: ${setup.name}, batch ${setup.batch}: ${(texts.length / seconds).toFixed(1)} texts/s`);
    }
  }
  await Promise.all(loaded.map((e) => e.close()));
  const loadAfter = loadAverage();

  const best = (xs: number[]) => Math.max(...xs);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const rows = setups.map(
    (s, k) =>
      `| ${s.name} | ${s.batch} | ${(perSecond[k] ?? []).map((v) => v.toFixed(1)).join(", ")} | ${median(perSecond[k] ?? []).toFixed(1)} | ${median(cpuMs[k] ?? []).toFixed(2)} |`,
  );
  const found = chosen === 1 ? -1 : setups.findIndex((s) => s.batch === EMBED_STEP && s.name.startsWith(`${chosen} sessions`));
  const before = setups.findIndex((s) => s.batch === BEFORE_STEP && s.name === "1 session, 1 intra-op thread");
  const stage = found < 0 ? before : found;
  const rateOf = (k: number) => median(perSecond[k] ?? []);
  const hours = (rate: number) => MONTH_OF_FEED / rate / 3600;
  const ceiling = (cores * 1000) / median(cpuMs[stage] ?? []);
  const body = `
## Embedding on every core (the embedding stage, \`newsindex embed\`)

Machine: ${machine()}. Load average (1 / 5 / 15 min) before ${loadBefore}, after ${loadAfter}.
Command: \`flock /tmp/newsindex-bench.lock npm run bench:embedding -- --texts ${TEXTS} --rounds ${ROUNDS}\`.

The shipped model (e5-small-v2, int8) over ${texts.length} distinct texts of the corpus (headline and names, as the stage embeds them), every configuration loaded first and then run in turn, ${ROUNDS} rounds. Batch: texts per model call of the stage (a step; the model runs each token length of a batch together).

| configuration | batch | texts/s, each round | texts/s, median | CPU ms per text, median |
|---|---:|---:|---:|---:|
${rows.join("\n")}

The stage runs ${chosen} session${chosen === 1 ? "" : "s"} (\`NEWSINDEX_EMBEDDING_THREADS\`, default: the machine's cores) at batch ${EMBED_STEP}: ${rateOf(stage).toFixed(1)} texts/s against ${rateOf(before).toFixed(1)} for one session on one thread at batch ${BEFORE_STEP}, the stage before (${(rateOf(stage) / rateOf(before)).toFixed(2)}x, best rounds ${best(perSecond[stage] ?? []).toFixed(1)} and ${best(perSecond[before] ?? []).toFixed(1)}). A month of the live feed (~${MONTH_OF_FEED.toLocaleString("en-US")} articles, nearly every text distinct) takes **${hours(rateOf(stage)).toFixed(1)} h** to backfill at that rate (${hours(rateOf(before)).toFixed(1)} h on one thread); at the best round's rate, ${hours(best(perSecond[stage] ?? [])).toFixed(1)} h. What bounds it is the model's CPU per text: at ${median(cpuMs[stage] ?? []).toFixed(2)} ms, ${cores} cores give at most ${ceiling.toFixed(0)} texts/s (${hours(ceiling).toFixed(1)} h for the month) with nothing else running; the machine's other load took the rest.
`;
  writeSection(args.out, "embedding", body);
  console.log(body);
}

await main();
