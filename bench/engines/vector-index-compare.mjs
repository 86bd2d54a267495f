// Vector search engines for semantic ranking, compared on one set of unit
// vectors (384 dimensions, as the shipped model's): exact scan in JavaScript
// over a Float32Array, sqlite-vec's vec0 (brute force in C, float32 and
// binary-quantized), and HNSW (hnswlib-node). Top 10 by cosine, recall@10
// against the exact scan. Not a dependency of the product: run it where those
// two packages are installed (`npm install --no-save sqlite-vec hnswlib-node`):
//   node bench/engines/vector-index-compare.mjs [N]
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import hnswlib from "hnswlib-node";

const N = Number(process.argv[2] ?? 20000);
const D = 384;
const QUERIES = 20;
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
const unit = (v) => {
  let s = 0;
  for (const x of v) s += x * x;
  s = Math.sqrt(s);
  return v.map((x) => x / s);
};
// Clustered, like sentence embeddings: 200 centres, each vector near one.
const centres = Array.from({ length: 200 }, () => unit(Float32Array.from({ length: D }, random)));
const vectors = new Float32Array(N * D);
for (let i = 0; i < N; i++) {
  const c = centres[i % centres.length];
  const v = unit(Float32Array.from({ length: D }, (_, d) => c[d] + random() * 0.15));
  vectors.set(v, i * D);
}
const queries = Array.from({ length: QUERIES }, (_, q) => vectors.slice((q * 997 % N) * D, (q * 997 % N) * D + D).map((x) => x + random() * 0.02));

function exact(q) {
  const best = [];
  for (let i = 0; i < N; i++) {
    let s = 0;
    const at = i * D;
    for (let d = 0; d < D; d++) s += vectors[at + d] * q[d];
    if (best.length < 10 || s > best[9][1]) {
      best.push([i, s]);
      best.sort((a, b) => b[1] - a[1]);
      if (best.length > 10) best.pop();
    }
  }
  return best.map(([i]) => i);
}
const time = (fn) => {
  const t = performance.now();
  const out = queries.map(fn);
  return { ms: (performance.now() - t) / QUERIES, out };
};
const recall = (got, truth) => got.reduce((sum, g, i) => sum + g.filter((x) => truth[i].includes(x)).length / 10, 0) / got.length;

const js = time(exact);
console.log(`N=${N}: exact scan (JS) ${js.ms.toFixed(2)} ms/query`);

const db = new Database(":memory:");
sqliteVec.load(db);
db.exec(`CREATE VIRTUAL TABLE vf USING vec0(embedding float[${D}] distance_metric=cosine)`);
db.exec(`CREATE VIRTUAL TABLE vb USING vec0(embedding bit[${D}])`);
const insF = db.prepare("INSERT INTO vf(rowid, embedding) VALUES (?, ?)");
const insB = db.prepare("INSERT INTO vb(rowid, embedding) VALUES (?, vec_quantize_binary(?))");
db.transaction(() => {
  for (let i = 0; i < N; i++) {
    const blob = Buffer.from(vectors.buffer, i * D * 4, D * 4);
    insF.run(BigInt(i), blob);
    insB.run(BigInt(i), blob);
  }
})();
const knnF = db.prepare("SELECT rowid FROM vf WHERE embedding MATCH ? AND k = 10");
const vf = time((q) => knnF.all(Buffer.from(q.buffer)).map((r) => Number(r.rowid)));
console.log(`sqlite-vec float32 ${vf.ms.toFixed(2)} ms/query, recall@10 ${recall(vf.out, js.out).toFixed(3)}`);
const knnB = db.prepare("SELECT rowid FROM vb WHERE embedding MATCH vec_quantize_binary(?) AND k = 10");
const vb = time((q) => knnB.all(Buffer.from(q.buffer)).map((r) => Number(r.rowid)));
console.log(`sqlite-vec binary ${vb.ms.toFixed(2)} ms/query, recall@10 ${recall(vb.out, js.out).toFixed(3)} (no rescoring)`);

const built = performance.now();
const index = new hnswlib.HierarchicalNSW("cosine", D);
index.initIndex(N, 16, 200);
for (let i = 0; i < N; i++) index.addPoint(Array.from(vectors.subarray(i * D, i * D + D)), i);
const buildSeconds = (performance.now() - built) / 1000;
index.setEf(64);
const hn = time((q) => index.searchKnn(Array.from(q), 10).neighbors);
console.log(`HNSW (M 16, ef 64) ${hn.ms.toFixed(2)} ms/query, recall@10 ${recall(hn.out, js.out).toFixed(3)}, built in ${buildSeconds.toFixed(1)} s`);
