// Post-processing of a set of sentence vectors that /similar's variants compare: "all-but-the-top" (Mu & Viswanath,
// ICLR 2018): take off the mean and the top principal directions, which every passage shares (why any two news
// passages sit at cosine 0.80–0.90) and which carry little of what tells one kind of news from another.

/** `vectors` centred on their mean, projected off their `components` top principal directions, L2-normalised. */
export function allButTheTop(vectors: ReadonlyArray<Float32Array | null>, components: number): Array<Float32Array | null> {
  const present = vectors.filter((v): v is Float32Array => v !== null);
  const first = present[0];
  if (first === undefined) return [...vectors];
  const d = first.length;
  const mean = new Float64Array(d);
  for (const v of present) for (let i = 0; i < d; i++) mean[i] = (mean[i] as number) + (v[i] as number) / present.length;
  const centred = present.map((v) => Float64Array.from(v, (x, i) => x - (mean[i] as number)));
  const directions = topDirections(centred, components);
  const byVector = new Map(present.map((v, i) => [v, centred[i] as Float64Array]));
  return vectors.map((v) => {
    if (v === null) return null;
    const x = Float64Array.from(byVector.get(v) as Float64Array);
    for (const u of directions) {
      const p = dot64(x, u);
      for (let i = 0; i < d; i++) x[i] = (x[i] as number) - p * (u[i] as number);
    }
    const norm = Math.sqrt(dot64(x, x)) || 1;
    return Float32Array.from(x, (y) => y / norm);
  });
}

/** The `k` top eigenvectors of the rows' covariance, by power iteration with deflation. */
function topDirections(rows: readonly Float64Array[], k: number): Float64Array[] {
  const d = rows[0]?.length ?? 0;
  const cov = new Float64Array(d * d);
  for (const r of rows)
    for (let i = 0; i < d; i++) {
      const ri = r[i] as number;
      for (let j = i; j < d; j++) cov[i * d + j] = (cov[i * d + j] as number) + ri * (r[j] as number);
    }
  for (let i = 0; i < d; i++) for (let j = 0; j < i; j++) cov[i * d + j] = cov[j * d + i] as number;
  const out: Float64Array[] = [];
  for (let c = 0; c < k; c++) {
    let u = Float64Array.from({ length: d }, (_, i) => Math.sin(i + c + 1));
    for (let iter = 0; iter < 200; iter++) {
      const next = new Float64Array(d);
      for (let i = 0; i < d; i++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += (cov[i * d + j] as number) * (u[j] as number);
        next[i] = s;
      }
      for (const w of out) {
        const p = dot64(next, w);
        for (let i = 0; i < d; i++) next[i] = (next[i] as number) - p * (w[i] as number);
      }
      const norm = Math.sqrt(dot64(next, next)) || 1;
      u = next.map((x) => x / norm);
    }
    out.push(u);
  }
  return out;
}

function dot64(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}
