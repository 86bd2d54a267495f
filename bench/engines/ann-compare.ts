// Approximate nearest-neighbour engines for semantic ranking, compared on
// real-model vectors: the distinct stored vectors of a bench index (e5-small-v2,
// 384 dimensions, unit length), queried with the judged set's 40 queries
// embedded by the same model (`query: ` prefix). Recall@10 and recall@1000
// against an exact scan of the same vectors; build time, size, query time.
//
//   node --import tsx bench/engines/ann-compare.ts --index bench/.data/semantic-.../index [--n 100000] [--hnswlib /path/to/node_modules]
//
// Engines: exact scan in JavaScript (the reference), usearch HNSW (float32 and
// int8, the product's dependency; inner product, the vectors being unit length), hnswlib-node HNSW (when --hnswlib names a
// node_modules holding it: not a dependency), and an IVF-flat in TypeScript.
// --n: when the index holds fewer distinct vectors than n, the rest are noisy
// copies of real ones (about 0.9 cosine from their origin), labelled as such.
// --engines usearch: the product's engine only.

import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { Index, MetricKind, ScalarKind } from "usearch";
import { OnnxEmbedder } from "../../src/adapters/onnx/onnx-embedder.js";
import { SHIPPED_MODEL_DIR } from "../../src/adapters/onnx/shipped-model.js";
import { semanticText } from "../../src/domain/semantic-query.js";
import { JUDGED_QUERIES } from "../../eval/search/judged-set.js";

const { values } = parseArgs({
  options: {
    index: { type: "string" },
    n: { type: "string", default: "0" },
    hnswlib: { type: "string" },
    threads: { type: "string", default: "1" },
    engines: { type: "string", default: "all" },
  },
});
const D = 384;
const THREADS = Number(values.threads);

function loadDistinct(dir: string): Float32Array[] {
  const seen = new Set<string>();
  const out: Float32Array[] = [];
  for (const file of readdirSync(dir).filter((f) => /^articles-\d{6}\.db$/.test(f))) {
    const db = new Database(join(dir, file), { readonly: true });
    for (const row of db.prepare("SELECT embedding FROM article_vectors WHERE embedding IS NOT NULL").iterate() as Iterable<{
      embedding: Buffer;
    }>) {
      const key = row.embedding.toString("base64");
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(new Float32Array(new Uint8Array(row.embedding).buffer));
    }
    db.close();
  }
  return out;
}

function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (let d = 0; d < D; d++) s += (v[d] as number) ** 2;
  s = Math.sqrt(s);
  for (let d = 0; d < D; d++) v[d] = (v[d] as number) / s;
  return v;
}

function dot(a: Float32Array, at: number, q: Float32Array): number {
  let s = 0;
  for (let d = 0; d < D; d++) s += (a[at + d] as number) * (q[d] as number);
  return s;
}

function topK(scores: Array<[number, number]>, k: number): number[] {
  return scores
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([i]) => i);
}

const time = <T>(fn: () => T): { ms: number; value: T } => {
  const t = performance.now();
  const value = fn();
  return { ms: performance.now() - t, value };
};

async function main(): Promise<void> {
  const real = values.index ? loadDistinct(values.index) : [];
  const n = Math.max(real.length, Number(values.n));
  const all = new Float32Array(n * D);
  real.forEach((v, i) => all.set(v, i * D));
  let seed = 7;
  const rnd = (m: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % m;
  // Gaussian noise (Box-Muller) of 0.0245 per dimension: a copy about 0.9 cosine from its real vector.
  const gauss = (): number =>
    Math.sqrt(-2 * Math.log((rnd(1 << 30) + 1) / (1 << 30))) * Math.cos((2 * Math.PI * rnd(1 << 30)) / (1 << 30));
  for (let i = real.length; i < n; i++) {
    const a = real[rnd(real.length)] as Float32Array;
    const v = new Float32Array(D);
    for (let d = 0; d < D; d++) v[d] = (a[d] as number) + 0.0245 * gauss();
    all.set(unit(v), i * D);
  }
  console.log(
    `${n} vectors: ${real.length} distinct real ones${n > real.length ? `, ${n - real.length} noisy copies of them (cosine about 0.9)` : ""}`,
  );

  const embedder = await OnnxEmbedder.load(SHIPPED_MODEL_DIR);
  const queries = await embedder.embed(
    JUDGED_QUERIES.map((q) => semanticText(q.q) || q.q),
    "query",
  );
  await embedder.close();

  // Reference: exact scan.
  const exact = time(() =>
    queries.map((q) => {
      const scores: Array<[number, number]> = [];
      for (let i = 0; i < n; i++) scores.push([i, dot(all, i * D, q)]);
      return topK(scores, 1000);
    }),
  );
  const truth = exact.value;
  console.log(`exact scan (JS, float32): ${(exact.ms / queries.length).toFixed(2)} ms/query (top 1000, sort included)`);
  const recall = (got: number[][], k: number): number =>
    got.reduce((sum, g, qi) => {
      const t = new Set((truth[qi] as number[]).slice(0, k));
      return sum + g.slice(0, k).filter((x) => t.has(x)).length / k;
    }, 0) / got.length;

  const dir = mkdtempSync(join(tmpdir(), "ann-"));
  const onlyUsearch = values.engines === "usearch";
  for (const quantization of onlyUsearch ? [ScalarKind.F32] : [ScalarKind.F32, ScalarKind.I8]) {
    for (const [connectivity, expansionAdd] of onlyUsearch
      ? ([[32, 256]] as const)
      : ([
          [16, 128],
          [32, 256],
        ] as const)) {
      // The same settings for the index built here and the one viewed from its file.
      const settings = {
        dimensions: D,
        metric: MetricKind.IP,
        quantization,
        connectivity,
        expansion_add: expansionAdd,
        expansion_search: 128,
        multi: false,
      };
      const index = new Index(settings);
      const keys = BigUint64Array.from({ length: n }, (_, i) => BigInt(i));
      const rssBefore = process.memoryUsage().rss;
      const built = time(() => {
        for (let at = 0; at < n; at += 1000) {
          const end = Math.min(n, at + 1000);
          index.add(keys.subarray(at, end), splitRows(all, at, end), THREADS);
        }
      });
      const rss = process.memoryUsage().rss - rssBefore;
      const file = join(dir, `u-${quantization}-${connectivity}-${expansionAdd}.usearch`);
      index.save(file);
      const viewed = new Index(settings);
      viewed.view(file);
      for (const k of [10, 1000]) {
        const q = time(() => queries.map((v) => Array.from(viewed.search(v, k, 1).keys, Number)));
        console.log(
          `usearch ${quantization} M ${connectivity} ef_add ${expansionAdd}: build ${((built.ms / n) * 100).toFixed(1)} s per 100k (${THREADS} thread), RAM +${(rss / 1048576).toFixed(0)} MiB, file ${(statSync(file).size / 1048576).toFixed(0)} MiB; k ${k}: ${(q.ms / queries.length).toFixed(2)} ms/query (viewed), recall@10 ${recall(q.value, 10).toFixed(3)}${k === 1000 ? `, recall@1000 ${recall(q.value, 1000).toFixed(3)}` : ""}`,
        );
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });

  if (onlyUsearch) return;
  if (values.hnswlib && existsSync(values.hnswlib)) {
    const require = createRequire(join(values.hnswlib, "x.js"));
    const { HierarchicalNSW } = require("hnswlib-node") as {
      HierarchicalNSW: new (
        space: string,
        dim: number,
      ) => {
        initIndex(max: number, m: number, efc: number): void;
        addPoint(v: Float32Array | number[], label: number): void;
        setEf(ef: number): void;
        searchKnn(v: Float32Array | number[], k: number): { neighbors: number[] };
      };
    };
    const h = new HierarchicalNSW("ip", D);
    h.initIndex(n, 32, 256);
    const rssBefore = process.memoryUsage().rss;
    const built = time(() => {
      for (let i = 0; i < n; i++) h.addPoint(Array.from(all.subarray(i * D, i * D + D)), i);
    });
    const rss = process.memoryUsage().rss - rssBefore;
    for (const k of [10, 1000]) {
      h.setEf(Math.max(128, k));
      const q = time(() => queries.map((v) => h.searchKnn(Array.from(v), k).neighbors));
      console.log(
        `hnswlib-node M 32 efC 256: build ${((built.ms / n) * 100).toFixed(1)} s per 100k, RAM +${(rss / 1048576).toFixed(0)} MiB; k ${k}: ${(q.ms / queries.length).toFixed(2)} ms/query, recall@10 ${recall(q.value, 10).toFixed(3)}${k === 1000 ? `, recall@1000 ${recall(q.value, 1000).toFixed(3)}` : ""}`,
      );
    }
  }

  // IVF-flat in TypeScript: k-means lists, probe the nearest lists.
  const nlist = Math.max(16, Math.round(Math.sqrt(n)));
  const ivf = time(() => buildIvf(all, n, nlist));
  for (const nprobe of [16, 64]) {
    const q = time(() => queries.map((v) => searchIvf(ivf.value, all, v, nprobe, 1000)));
    console.log(
      `IVF-flat (TS) ${nlist} lists, nprobe ${nprobe}: build ${((ivf.ms / n) * 100).toFixed(1)} s per 100k; k 1000: ${(q.ms / queries.length).toFixed(2)} ms/query, recall@10 ${recall(q.value, 10).toFixed(3)}, recall@1000 ${recall(q.value, 1000).toFixed(3)}`,
    );
  }
}

function splitRows(all: Float32Array, from: number, to: number): Float32Array[] {
  const rows: Float32Array[] = [];
  for (let i = from; i < to; i++) rows.push(all.subarray(i * D, i * D + D));
  return rows;
}

interface Ivf {
  centres: Float32Array;
  lists: number[][];
}

function buildIvf(all: Float32Array, n: number, nlist: number): Ivf {
  const centres = new Float32Array(nlist * D);
  for (let c = 0; c < nlist; c++) centres.set(all.subarray(((c * 7919) % n) * D, ((c * 7919) % n) * D + D), c * D);
  const sample = Math.min(n, nlist * 20);
  const assign = new Int32Array(n);
  for (let iter = 0; iter < 6; iter++) {
    const sums = new Float32Array(nlist * D);
    for (let i = 0; i < sample; i++) {
      const at = ((i * 104729) % n) * D;
      const c = nearestCentre(centres, nlist, all, at);
      for (let d = 0; d < D; d++) sums[c * D + d] = (sums[c * D + d] as number) + (all[at + d] as number);
    }
    for (let c = 0; c < nlist; c++) {
      let s = 0;
      for (let d = 0; d < D; d++) s += (sums[c * D + d] as number) ** 2;
      if (s === 0) continue;
      s = Math.sqrt(s);
      for (let d = 0; d < D; d++) centres[c * D + d] = (sums[c * D + d] as number) / s;
    }
  }
  const lists: number[][] = Array.from({ length: nlist }, () => []);
  for (let i = 0; i < n; i++) {
    assign[i] = nearestCentre(centres, nlist, all, i * D);
    (lists[assign[i] as number] as number[]).push(i);
  }
  return { centres, lists };
}

function nearestCentre(centres: Float32Array, nlist: number, all: Float32Array, at: number): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let c = 0; c < nlist; c++) {
    let s = 0;
    for (let d = 0; d < D; d++) s += (centres[c * D + d] as number) * (all[at + d] as number);
    if (s > bestScore) {
      bestScore = s;
      best = c;
    }
  }
  return best;
}

function searchIvf(ivf: Ivf, all: Float32Array, q: Float32Array, nprobe: number, k: number): number[] {
  const nlist = ivf.lists.length;
  const cs: Array<[number, number]> = [];
  for (let c = 0; c < nlist; c++) cs.push([c, dot(ivf.centres, c * D, q)]);
  const probe = topK(cs, nprobe);
  const scores: Array<[number, number]> = [];
  for (const c of probe) for (const i of ivf.lists[c] as number[]) scores.push([i, dot(all, i * D, q)]);
  return topK(scores, k);
}

await main();
