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

/** The int8 components of a stored float32 vector (measured against float32 in bench/vectors-bench.ts). */
export function int8Components(blob: Buffer): Int8Array {
  return quantise(toFloat32(blob)).components;
}

/** A stored float32 vector as a Float32Array (a view when aligned, else a copy). */
export function toFloat32(blob: Buffer): Float32Array {
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength >>> 2);
  const copy = new Uint8Array(blob);
  return new Float32Array(copy.buffer, 0, copy.byteLength >>> 2);
}
