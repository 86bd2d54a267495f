// Vectors and their graphs (issue 33, item 4): what each costs on disk per
// article, and what int8 costs in recall, on an embedded bench index (made by
// `npm run bench:semantic`, which embeds and builds the graphs):
//
//   sizes   bytes per article of `article_vectors` (dbstat: its pages) and of
//           the graph files (.ann, .ann.dup), apart from the rest of the index
//   recall  the semantic ranking's top 10 / top 100 over every vector, for the
//           judged set's queries and the semantic bench's, and /similar's for
//           seed articles (their own story left out), against an exact float32
//           scan: int8 vectors (a scale and 384 bytes) scanned exactly, int8 of
//           each vector's difference from its month's mean, the float32 graph,
//           and a graph of int8 components (usearch i8, cosine) scored by its
//           own cosine, by the int8 vectors or by the float32 ones (served);
//           counted per article (copies tie) and per distinct vector
//
//   flock /tmp/newsindex-bench.lock npm run bench:vectors [-- --dir bench/.data/DIR --seeds 100]
//
// DIR defaults to the index `npm run bench:semantic -- --articles 95000` embeds.

import { readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import type * as USearch from "usearch";
import { OnnxEmbedder } from "../src/adapters/onnx/onnx-embedder.js";
import { SHIPPED_MODEL_DIR } from "../src/adapters/onnx/shipped-model.js";
import { toVector } from "../src/adapters/sqlite/partition-vectors.js";
import { quantise } from "../src/adapters/sqlite/vector-codec.js";
import { semanticText } from "../src/domain/semantic-query.js";
import { JUDGED_QUERIES } from "../eval/search/judged-set.js";
import { loadAverage, machine } from "./scale/measure.js";

const { Index, MetricKind, ScalarKind } = createRequire(import.meta.url)("usearch") as typeof USearch;

const { values } = parseArgs({
  options: {
    dir: { type: "string", default: new URL("./.data/semantic-v2-95000-2024-01-6-1", import.meta.url).pathname },
    seeds: { type: "string", default: "100" },
  },
});
const DIR = join(values.dir as string, "index");
const SEEDS = Number(values.seeds);
const DIMS = 384;
const EXTRA_QUERIES = [
  "gunfire at a neighbourhood celebration in Maryland",
  "police",
  "elections and voters",
  "state visit",
  "baltimore shooting",
];

interface Month {
  file: string;
  articles: number;
  rowids: number[];
  stories: Array<string | null>;
  f32: Float32Array[];
  i8: Int8[];
  /** The month's mean vector, and each vector's difference from it as int8. */
  mean: Float32Array;
  residual: Int8[];
  /** Node of each article (index into rowids of the first equal vector). */
  nodeOf: number[];
}

type Ranked = Array<{ month: number; at: number; score: number }>;

function sizes(): string[] {
  const lines: string[] = [];
  let articles = 0;
  let file = 0;
  let vectors = 0;
  let ann = 0;
  let dup = 0;
  for (const f of readdirSync(DIR).filter((n) => /^articles-\d{6}\.db$/.test(n))) {
    const db = new Database(join(DIR, f), { readonly: true });
    articles += db.prepare("SELECT count(*) FROM articles").pluck().get() as number;
    file += statSync(join(DIR, f)).size;
    vectors += db.prepare("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = 'article_vectors'").pluck().get() as number;
    db.close();
    const base = join(DIR, f.replace(/\.db$/, ""));
    ann += statSync(`${base}.ann`).size;
    dup += statSync(`${base}.ann.dup`).size;
  }
  const per = (bytes: number): string => Math.round(bytes / articles).toLocaleString("en");
  lines.push(
    `articles ${articles}; monthly index files ${per(file)} B/article, of which article_vectors ${per(vectors)} B/article (the rest ${per(file - vectors)}); graph .ann ${per(ann)} B/article, .ann.dup ${per(dup)} B/article`,
  );
  return lines;
}

function load(): Month[] {
  return readdirSync(DIR)
    .filter((n) => /^articles-\d{6}\.db$/.test(n))
    .map((file) => {
      const db = new Database(join(DIR, file), { readonly: true });
      const rows = db
        .prepare(
          `SELECT v.rowid, v.embedding, json_extract(d.doc, '$.story_id') AS story FROM article_vectors v
           JOIN docs d ON d.rowid = v.rowid WHERE v.embedding IS NOT NULL ORDER BY v.rowid`,
        )
        .all() as Array<{ rowid: number; embedding: Buffer; story: string | null }>;
      const articles = db.prepare("SELECT count(*) FROM articles").pluck().get() as number;
      db.close();
      const first = new Map<string, number>();
      const nodeOf = rows.map((r, i) => {
        const key = r.embedding.toString("base64");
        const at = first.get(key);
        if (at !== undefined) return at;
        first.set(key, i);
        return i;
      });
      const f32 = rows.map((r) => new Float32Array(toVector(r.embedding)));
      return {
        file,
        articles,
        rowids: rows.map((r) => r.rowid),
        stories: rows.map((r) => r.story),
        f32,
        i8: f32.map(quantise),
        mean: meanOf(f32),
        residual: [],
        nodeOf,
      };
    });
}

function meanOf(vs: Float32Array[]): Float32Array {
  const out = new Float32Array(DIMS);
  for (const v of vs) for (let d = 0; d < DIMS; d++) out[d] = (out[d] as number) + (v[d] as number) / vs.length;
  return out;
}

/** Each article once (false), or each distinct vector once (true: the first article carrying it). */
let distinct = false;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let d = 0; d < DIMS; d++) s += (a[d] as number) * (b[d] as number);
  return s;
}

/** A vector stored as int8: a float32 scale and 384 bytes (388 B against 1,536). */
type Int8 = ReturnType<typeof quantise>;

function dotI8(v: Int8, q: Float32Array): number {
  let s = 0;
  for (let d = 0; d < DIMS; d++) s += (v.components[d] as number) * (q[d] as number);
  return s * v.scale;
}

function exact(months: Month[], q: Float32Array, k: number, skip: string | undefined, score: "f32" | "i8" | "residual"): Ranked {
  const all: Ranked = [];
  months.forEach((m, mi) => {
    const base = score === "residual" ? dot(m.mean, q) : 0;
    for (let i = 0; i < m.rowids.length; i++) {
      if (skip !== undefined && m.stories[i] === skip) continue;
      if (distinct && m.nodeOf[i] !== i) continue;
      const s =
        score === "f32"
          ? dot(m.f32[i] as Float32Array, q)
          : score === "i8"
            ? dotI8(m.i8[i] as Int8, q)
            : base + dotI8(m.residual[i] as Int8, q);
      all.push({ month: mi, at: i, score: s });
    }
  });
  all.sort((a, b) => b.score - a.score);
  return all.slice(0, k);
}

interface Graph {
  index: USearch.Index;
  copies: Map<number, number[]>;
  nodes: number;
  bytes: number;
}

function buildGraph(m: Month, kind: "f32" | "i8"): Graph {
  const index = new Index({
    dimensions: DIMS,
    metric: kind === "f32" ? MetricKind.IP : MetricKind.Cos,
    quantization: kind === "f32" ? ScalarKind.F32 : ScalarKind.I8,
    connectivity: 32,
    expansion_add: 256,
    expansion_search: 128,
    multi: false,
  });
  const copies = new Map<number, number[]>();
  const nodes: number[] = [];
  m.nodeOf.forEach((node, i) => {
    if (node === i) nodes.push(i);
    else {
      let list = copies.get(node);
      if (!list) copies.set(node, (list = []));
      list.push(i);
    }
  });
  for (let at = 0; at < nodes.length; at += 1000) {
    const batch = nodes.slice(at, at + 1000);
    index.add(
      BigUint64Array.from(batch, (i) => BigInt(i)),
      batch.map((i) => (kind === "f32" ? (m.f32[i] as Float32Array) : (m.i8[i] as Int8).components)),
      2,
    );
  }
  const tmp = `/tmp/vectors-bench-${process.pid}.ann`;
  index.save(tmp);
  const bytes = statSync(tmp).size;
  rmSync(tmp);
  return { index, copies, nodes: nodes.length, bytes };
}

/** The graph's answer as the read path asks it (partition-ann.ts): enough nodes for k articles, copies expanded. */
function viaGraph(
  months: Month[],
  graphs: Graph[],
  q: Float32Array,
  k: number,
  skip: string | undefined,
  kind: "f32" | "i8",
  rescore: "graph" | "i8" | "f32",
): Ranked {
  const all: Ranked = [];
  const qi8 = kind === "i8" ? quantise(q).components : q;
  months.forEach((m, mi) => {
    const g = graphs[mi] as Graph;
    const skippedNodes = skip === undefined ? 0 : new Set(m.nodeOf.filter((_, i) => m.stories[i] === skip)).size;
    let nodes = Math.min(g.nodes, Math.ceil((k * g.nodes * 1.5) / Math.max(1, m.rowids.length)) + 16 + skippedNodes);
    for (;;) {
      const found = g.index.search(qi8, nodes, 1);
      const out: Ranked = [];
      for (let j = 0; j < found.keys.length; j++) {
        const node = Number(found.keys[j]);
        const graphScore = 1 - (found.distances[j] as number);
        const score =
          rescore === "i8" ? dotI8(m.i8[node] as Int8, q) : rescore === "f32" ? dot(m.f32[node] as Float32Array, q) : graphScore;
        for (const at of [node, ...(distinct ? [] : (g.copies.get(node) ?? []))])
          if (m.stories[at] !== skip) out.push({ month: mi, at, score });
      }
      if (out.length >= k || nodes >= g.nodes) {
        all.push(...out);
        break;
      }
      nodes = Math.min(g.nodes, nodes * 2);
    }
  });
  all.sort((a, b) => b.score - a.score);
  return all.slice(0, k);
}

/** Share of `got` scoring (in float32) at least the exact k-th: ties (the corpus repeats texts) count as hits. */
function recall(months: Month[], q: Float32Array, truth: Ranked, got: Ranked): number {
  const floor = (truth[truth.length - 1]?.score ?? 1) - 1e-6;
  const hits = got.filter((g) => dot(months[g.month]?.f32[g.at] as Float32Array, q) >= floor).length;
  return Math.min(1, hits / Math.max(1, truth.length));
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  console.log(`Machine: ${machine()}. Load before: ${loadBefore}.`);
  for (const line of sizes()) console.log(line);
  const months = load();
  const embedder = await OnnxEmbedder.load(SHIPPED_MODEL_DIR);
  const texts = [...JUDGED_QUERIES.map((j) => semanticText(j.q)), ...EXTRA_QUERIES];
  const queries = await embedder.embed(texts, "query");
  await embedder.close();
  // Seeds spread evenly over every stored vector, each with its story left out as /similar does.
  const flat = months.flatMap((m, mi) => m.rowids.map((_, at) => ({ month: mi, at })));
  const step = Math.max(1, Math.floor(flat.length / SEEDS));
  const seeds = Array.from({ length: Math.min(SEEDS, flat.length) }, (_, i) => flat[i * step] as { month: number; at: number });

  const started = performance.now();
  const f32Graphs = months.map((m) => buildGraph(m, "f32"));
  const f32Build = (performance.now() - started) / 1000;
  const t2 = performance.now();
  const i8Graphs = months.map((m) => buildGraph(m, "i8"));
  const i8Build = (performance.now() - t2) / 1000;
  const articles = months.reduce((s, m) => s + m.articles, 0);
  const nodes = f32Graphs.reduce((s, g) => s + g.nodes, 0);
  const perArticle = (gs: Graph[]): number => Math.round(gs.reduce((s, g) => s + g.bytes, 0) / articles);
  console.log(
    `graphs: ${nodes} nodes for ${articles} articles; float32 ${perArticle(f32Graphs)} B/article (${f32Build.toFixed(0)} s to build, 2 threads), int8 ${perArticle(i8Graphs)} B/article (${i8Build.toFixed(0)} s)`,
  );

  for (const m of months) m.residual = m.f32.map((v) => quantise(v.map((x, d) => x - (m.mean[d] as number))));
  const variants = {
    "int8 vectors, exact scan": (q: Float32Array, k: number, skip?: string) => exact(months, q, k, skip, "i8"),
    "int8 of the difference from the month's mean, exact scan": (q: Float32Array, k: number, skip?: string) =>
      exact(months, q, k, skip, "residual"),
    "float32 graph (served today)": (q: Float32Array, k: number, skip?: string) =>
      viaGraph(months, f32Graphs, q, k, skip, "f32", "graph"),
    "int8 graph, its own cosine": (q: Float32Array, k: number, skip?: string) =>
      viaGraph(months, i8Graphs, q, k, skip, "i8", "graph"),
    "int8 graph, scored with int8 vectors": (q: Float32Array, k: number, skip?: string) =>
      viaGraph(months, i8Graphs, q, k, skip, "i8", "i8"),
    "int8 graph, scored with float32 vectors": (q: Float32Array, k: number, skip?: string) =>
      viaGraph(months, i8Graphs, q, k, skip, "i8", "f32"),
  };
  const sets = {
    [`semantic (${queries.length} queries)`]: queries.map((q) => ({ q, skip: undefined as string | undefined })),
    [`/similar (${seeds.length} seeds, own story left out)`]: seeds.map((s) => {
      const m = months[s.month] as Month;
      return { q: m.f32[s.at] as Float32Array, skip: m.stories[s.at] ?? String(m.rowids[s.at]) };
    }),
  };
  console.log(
    `\n| ranking | queries | counted | recall@10 (mean / min) | recall@100 (mean / min) | score given up at 10 (mean / max) |\n|---|---|---|---:|---:|---:|`,
  );
  for (const set of [true, false].flatMap((d) => Object.entries(sets).map(([n, x]) => [n, x, d] as const))) {
    const setName = set[0];
    distinct = set[2];
    const counted = distinct ? "distinct vectors" : "articles";
    const truths = set[1].map(({ q, skip }) => ({
      t10: exact(months, q, 10, skip, "f32"),
      t100: exact(months, q, 100, skip, "f32"),
    }));
    for (const [name, rank] of Object.entries(variants)) {
      const r10: number[] = [];
      const r100: number[] = [];
      const lost: number[] = [];
      set[1].forEach(({ q, skip }, i) => {
        const t = truths[i] as { t10: Ranked; t100: Ranked };
        const got = rank(q, 10, skip);
        r10.push(recall(months, q, t.t10, got));
        // How much lower (in float32 cosine) the worst of the top 10 is than the exact 10th: near-ties or real misses.
        const worst = Math.min(...got.map((g) => dot(months[g.month]?.f32[g.at] as Float32Array, q)));
        lost.push(Math.max(0, (t.t10[t.t10.length - 1]?.score ?? 0) - worst));
        r100.push(recall(months, q, t.t100, rank(q, 100, skip)));
      });
      const mean = (xs: number[]): string => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(4);
      const min = (xs: number[]): string => Math.min(...xs).toFixed(2);
      const max = (xs: number[]): string => Math.max(...xs).toFixed(4);
      console.log(
        `| ${name} | ${setName} | ${counted} | ${mean(r10)} / ${min(r10)} | ${mean(r100)} / ${min(r100)} | ${mean(lost)} / ${max(lost)} |`,
      );
    }
  }
  console.log(`\nLoad after: ${loadAverage()}.`);
}

await main();
