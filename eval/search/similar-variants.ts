// Rankings of /similar other than the served one, scored on the judged set (similar-set.ts) in memory over the
// sample (similar-sample.ts), so many can be compared in one run. The figures are in RESULTS.md ("/similar").
//   node --import tsx eval/search/similar-variants.ts            the named rankings, every half (--verbose: per seed)
//   node --import tsx eval/search/similar-variants.ts --grid     the grid, on the tuning seeds only
//
//   served       the 500 nearest by cosine, one per story (its best member), never the seed's own story
//   centred      the same, with the query moved off its language's mean vector (seed − that mean): the model puts
//                every passage of a language near the others (cosines 0.80–0.90), and the mean carries that part
//   fused        centred, candidates also from the articles sharing one of the seed's `themeSeeds` heaviest themes,
//                ranked by z(centred dot) + weight × z(theme cosine) (z: standardised over the candidates), themes
//                weighted by tf × BM25 idf over the sample; tf binary, 1 + ln(mentions) or BM25's saturation (k1 1.2)

import {
  byHalf,
  scoreSeeds,
  similarTable,
  verboseLines,
  type HalfFigure,
  type SeedScore,
  type SimilarRanking,
} from "./similar-eval.js";
import { loadSample, type SampleArticle } from "./similar-sample.js";
import { SIMILAR_SEEDS } from "./similar-set.js";

const DEPTH = 500;
const GRID = process.argv.includes("--grid");
type Centre = "none" | "global" | "language";
type Tf = "binary" | "mentions" | "log_mentions";

interface Variant {
  centre: Centre;
  tf: Tf;
  /** Weight of the theme cosine against the vector's, both standardised; 0: vector alone. */
  weight: number;
  /** How many of the seed's heaviest themes bring candidates of their own (0: the vector's candidates only). */
  themeSeeds: number;
}

const NAMED: Array<{ name: string; variant: Variant | "served" }> = [
  { name: "served: cosine", variant: "served" },
  { name: "centred on the language", variant: { centre: "language", tf: "binary", weight: 0, themeSeeds: 0 } },
  { name: "fused, themes present or not", variant: { centre: "language", tf: "binary", weight: 1, themeSeeds: 8 } },
  { name: "fused, themes by mentions", variant: { centre: "language", tf: "log_mentions", weight: 1, themeSeeds: 8 } },
];

const articles = await loadSample();
const byId = new Map(articles.map((a) => [a.id, a]));
const storyOf = (id: string): string => byId.get(id)?.story ?? id;
const df = new Map<string, number>();
for (const a of articles) for (const t of a.themes.keys()) df.set(t, (df.get(t) ?? 0) + 1);
const means = meanVectors(articles);

if (GRID) {
  const lines: string[] = ["| centre | tf | weight | theme seeds | tuning (13) | worst |", "|---|---|---:|---:|---:|---|"];
  for (const centre of ["none", "global", "language"] as Centre[])
    for (const tf of ["binary", "mentions", "log_mentions"] as Tf[])
      for (const themeSeeds of [0, 8, 16])
        for (const weight of [0.25, 0.5, 1, 2]) {
          const f = (await figures({ centre, tf, weight, themeSeeds })).find((h) => h.half === "tuning") as HalfFigure;
          lines.push(
            `| ${centre} | ${tf} | ${weight} | ${themeSeeds} | ${f.mean.toFixed(2)} | ${f.worst.hits} of ${f.worst.of} |`,
          );
        }
  console.log(lines.join("\n"));
} else {
  const rows = [];
  for (const { name, variant } of NAMED) rows.push({ name, figures: await figures(variant) });
  console.log(similarTable(rows));
  if (process.argv.includes("--verbose")) {
    for (const { name, variant } of NAMED) console.log(`\n${name}\n${verboseLines("", await perSeed(variant)).join("\n")}`);
  }
}

async function figures(variant: Variant | "served"): Promise<HalfFigure[]> {
  return byHalf(await perSeed(variant));
}

async function perSeed(variant: Variant | "served"): Promise<SeedScore[]> {
  const rank: SimilarRanking = async (id) => {
    const seed = byId.get(id);
    if (seed === undefined) return [];
    return variant === "served" ? served(seed) : ranked(seed, variant);
  };
  return scoreSeeds(rank, storyOf, GRID ? SIMILAR_SEEDS.filter((s) => s.half === "tuning") : SIMILAR_SEEDS);
}

function served(seed: SampleArticle): string[] {
  if (seed.vector === null) return [];
  const q = seed.vector;
  return onePerStory(
    seed,
    nearest(seed, q).map((a) => [a, dot(q, a.vector as Float32Array)]),
  );
}

function ranked(seed: SampleArticle, v: Variant): string[] {
  if (seed.vector === null) return [];
  const q = centred(seed, v.centre);
  const candidates = new Map(nearest(seed, q).map((a) => [a.id, a]));
  const weights = themeWeights(seed, v.tf);
  const heaviest = new Set(
    [...weights.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, v.themeSeeds)
      .map(([t]) => t),
  );
  for (const a of articles) {
    if (a.story !== seed.story && [...a.themes.keys()].some((t) => heaviest.has(t))) candidates.set(a.id, a);
  }
  const list = [...candidates.values()];
  const vectorZ = standardised(list.map((a) => (a.vector === null ? -1 : dot(q, a.vector))));
  const themeZ = standardised(list.map((a) => cosine(weights, themeWeights(a, v.tf))));
  return onePerStory(
    seed,
    list.map((a, i) => [a, (vectorZ[i] as number) + v.weight * (themeZ[i] as number)]),
  );
}

/** The DEPTH articles nearest `q`, never of the seed's story. */
function nearest(seed: SampleArticle, q: Float32Array): SampleArticle[] {
  return articles
    .filter((a) => a.vector !== null && a.story !== seed.story)
    .map((a) => [a, dot(q, a.vector as Float32Array)] as const)
    .sort((x, y) => y[1] - x[1])
    .slice(0, DEPTH)
    .map(([a]) => a);
}

function onePerStory(seed: SampleArticle, scored: Array<[SampleArticle, number]>): string[] {
  scored.sort((x, y) => y[1] - x[1]);
  const seen = new Set([seed.story]);
  const out: string[] = [];
  for (const [a] of scored) {
    if (seen.has(a.story)) continue;
    seen.add(a.story);
    out.push(a.id);
  }
  return out.slice(0, 10);
}

function centred(seed: SampleArticle, centre: Centre): Float32Array {
  const v = seed.vector as Float32Array;
  const mean = centre === "none" ? undefined : means.get(centre === "global" ? "*" : seed.language);
  return mean === undefined ? v : v.map((x, i) => x - (mean[i] as number));
}

/** The mean vector of every article ("*") and of each language's. */
function meanVectors(all: readonly SampleArticle[]): Map<string, Float32Array> {
  const sums = new Map<string, { sum: Float32Array; n: number }>();
  for (const a of all) {
    if (a.vector === null) continue;
    for (const key of ["*", a.language]) {
      let s = sums.get(key);
      if (!s) sums.set(key, (s = { sum: new Float32Array(a.vector.length), n: 0 }));
      s.n++;
      a.vector.forEach((x, i) => (s.sum[i] = (s.sum[i] as number) + x));
    }
  }
  return new Map([...sums].map(([k, s]) => [k, s.sum.map((x) => x / s.n)]));
}

function themeWeights(a: SampleArticle, tf: Tf): Map<string, number> {
  const n = articles.length;
  const out = new Map<string, number>();
  for (const [theme, mentions] of a.themes) {
    const d = df.get(theme) ?? 0;
    const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
    const t = tf === "binary" ? 1 : tf === "log_mentions" ? 1 + Math.log(mentions) : (mentions * 2.2) / (mentions + 1.2);
    out.set(theme, t * idf);
  }
  return out;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (const [t, x] of a) {
    aa += x * x;
    ab += x * (b.get(t) ?? 0);
  }
  for (const y of b.values()) bb += y * y;
  return aa === 0 || bb === 0 ? 0 : ab / Math.sqrt(aa * bb);
}

function standardised(xs: readonly number[]): number[] {
  const mean = xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, xs.length));
  return xs.map((x) => (sd === 0 ? 0 : (x - mean) / sd));
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}
