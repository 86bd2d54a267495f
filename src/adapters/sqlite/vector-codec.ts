// The int8 form of a vector that the nearest-neighbour graphs hold
// (partition-ann.ts): each component rounded to the nearest multiple of
// (largest |component| / 127), so the largest keeps full range (the vectors
// are unit length and their components small: usearch's own cast, ×127 and
// truncated, keeps ~3 bits of each). The graph compares these by cosine, which
// ignores each vector's scale; its neighbours are then scored with the stored
// float32 vectors. Stored vectors stay float32: int8 ones lose too much recall
// (bench/RESULTS.md, "Vectors").

/** A vector's scale (its largest |component| / 127) and int8 components. */
export function quantise(vector: Float32Array): { scale: number; components: Int8Array } {
  let max = 0;
  for (let d = 0; d < vector.length; d++) max = Math.max(max, Math.abs(vector[d] as number));
  const scale = max / 127;
  const components = new Int8Array(vector.length);
  if (scale > 0) for (let d = 0; d < vector.length; d++) components[d] = Math.round((vector[d] as number) / scale);
  return { scale, components };
}

/** The int8 components of a stored float32 vector, for the graph. */
export function int8Components(blob: Buffer): Int8Array {
  return quantise(toFloat32(blob)).components;
}

/** A stored float32 vector as a Float32Array (a view when aligned, else a copy). */
export function toFloat32(blob: Buffer): Float32Array {
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength >>> 2);
  const copy = new Uint8Array(blob);
  return new Float32Array(copy.buffer, 0, copy.byteLength >>> 2);
}
