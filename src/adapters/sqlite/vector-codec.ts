// The int8 form of a vector, measured against float32 for the graphs and the
// stored vectors (bench/vectors-bench.ts, bench/RESULTS.md "Vectors"): each
// component rounded to the nearest multiple of (largest |component| / 127), so
// the largest keeps full range (the vectors are unit length and their
// components small: usearch's own cast, ×127 and truncated, keeps ~3 bits of
// each). Neither is int8 today: stored int8 vectors lose too much recall, and
// an int8 graph's neighbours had to be read back from the index to be scored
// (partition-ann.ts, ANN_FORMAT).

/** A vector's scale (its largest |component| / 127) and int8 components. */
export function quantise(vector: Float32Array): { scale: number; components: Int8Array } {
  let max = 0;
  for (let d = 0; d < vector.length; d++) max = Math.max(max, Math.abs(vector[d] as number));
  const scale = max / 127;
  const components = new Int8Array(vector.length);
  if (scale > 0) for (let d = 0; d < vector.length; d++) components[d] = Math.round((vector[d] as number) / scale);
  return { scale, components };
}
