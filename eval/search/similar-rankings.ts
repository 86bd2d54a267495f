// Rankings of /similar over the sample held in memory (similar-sample.ts), parameterised by the articles' vectors, so
// one scoring serves every embedding compared (similar-variants.ts, similar-models.ts).
//
//   served       the DEPTH nearest by cosine, one per story (its best member), never the seed's own story
//   centred      the same, with the query moved off its language's mean vector (seed − that mean): the model puts
//                every passage of a language near the others (cosines 0.80–0.90), and the mean carries that part
//   fused        candidates also from the articles sharing one of the seed's `themeSeeds` heaviest themes, ranked by
//                z(dot) + weight × z(theme cosine) (z: standardised over the candidates), themes weighted by
//                tf × BM25 idf over the sample; tf binary, 1 + ln(mentions) or BM25's saturation (k1 1.2)

import type { SampleArticle } from "./similar-sample.js";

export const DEPTH = 500;
export type Centre = "none" | "global" | "language";
export type Tf = "binary" | "mentions" | "log_mentions";

export interface Variant {
  centre: Centre;
  tf: Tf;
  /** Weight of the theme cosine against the vector's, both standardised; 0: vector alone. */
  weight: number;
  /** How many of the seed's heaviest themes bring candidates of their own (0: the vector's candidates only). */
  themeSeeds: number;
  /**
   * Hubness correction (CSLS, Conneau et al. 2018): a candidate's dot minus `hub` × its mean cosine to its HUB_K
   * nearest articles, so a page near everything (an obituary list, a travel column) stops being near every seed.
   */
  hub?: number;
  /** Weight of the agreement of the kinds of news (the dot of the two articles' `kinds`), standardised. */
  kind?: number;
}

export const HUB_K = 10;

export interface Rankings {
  /** The served ranking: cosine over the DEPTH nearest, one per story. */
  /** `keep`: how many stories to return (10, the default, is all /similar's figure reads). */
  served(seed: SampleArticle, keep?: number): string[];
  ranked(seed: SampleArticle, v: Variant): string[];
}

export function rankingsOver(articles: readonly SampleArticle[]): Rankings {
  const df = new Map<string, number>();
  for (const a of articles) for (const t of a.themes.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const means = meanVectors(articles);
  const n = articles.length;
  let radii: Map<string, number> | undefined;
  const radius = (a: SampleArticle): number => {
    radii ??= hubRadii(articles);
    return radii.get(a.id) ?? 0;
  };

  const themeWeights = (a: SampleArticle, tf: Tf): Map<string, number> => {
    const out = new Map<string, number>();
    for (const [theme, mentions] of a.themes) {
      const d = df.get(theme) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      const t = tf === "binary" ? 1 : tf === "log_mentions" ? 1 + Math.log(mentions) : (mentions * 2.2) / (mentions + 1.2);
      out.set(theme, t * idf);
    }
    return out;
  };

  /** The DEPTH articles nearest `q`, never of the seed's story. */
  const nearest = (seed: SampleArticle, q: Float32Array): SampleArticle[] =>
    articles
      .filter((a) => a.vector !== null && a.story !== seed.story)
      .map((a) => [a, dot(q, a.vector as Float32Array)] as const)
      .sort((x, y) => y[1] - x[1])
      .slice(0, DEPTH)
      .map(([a]) => a);

  const centred = (seed: SampleArticle, centre: Centre): Float32Array => {
    const v = seed.vector as Float32Array;
    const mean = centre === "none" ? undefined : means.get(centre === "global" ? "*" : seed.language);
    return mean === undefined ? v : v.map((x, i) => x - (mean[i] as number));
  };

  return {
    served(seed, keep = 10) {
      if (seed.vector === null) return [];
      const q = seed.vector;
      return onePerStory(
        seed,
        nearest(seed, q).map((a) => [a, dot(q, a.vector as Float32Array)]),
        keep,
      );
    },
    ranked(seed, v) {
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
      const hub = v.hub ?? 0;
      const vectorZ = standardised(
        list.map((a) => (a.vector === null ? -1 : dot(q, a.vector) - (hub === 0 ? 0 : hub * radius(a)))),
      );
      const themeZ = standardised(list.map((a) => cosine(weights, themeWeights(a, v.tf))));
      const kind = v.kind ?? 0;
      const kindZ = standardised(
        list.map((a) => (kind === 0 || seed.kinds === undefined || a.kinds === undefined ? 0 : dot(seed.kinds, a.kinds))),
      );
      return onePerStory(
        seed,
        list.map((a, i) => [a, (vectorZ[i] as number) + v.weight * (themeZ[i] as number) + kind * (kindZ[i] as number)]),
      );
    },
  };
}

/** Per article, its mean cosine to its HUB_K nearest articles of other stories. */
function hubRadii(articles: readonly SampleArticle[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const a of articles) {
    if (a.vector === null) continue;
    const top: number[] = [];
    for (const b of articles) {
      if (b.vector === null || b.story === a.story) continue;
      const c = dot(a.vector, b.vector);
      if (top.length < HUB_K) top.push(c);
      else {
        const min = Math.min(...top);
        if (c > min) top[top.indexOf(min)] = c;
      }
    }
    out.set(a.id, top.reduce((s, x) => s + x, 0) / Math.max(1, top.length));
  }
  return out;
}

function onePerStory(seed: SampleArticle, scored: Array<[SampleArticle, number]>, keep = 10): string[] {
  scored.sort((x, y) => y[1] - x[1]);
  const seen = new Set([seed.story]);
  const out: string[] = [];
  for (const [a] of scored) {
    if (seen.has(a.story)) continue;
    seen.add(a.story);
    out.push(a.id);
  }
  return out.slice(0, keep);
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

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}
