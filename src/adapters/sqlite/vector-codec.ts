// How a vector is held in `article_vectors` (meta `vector_encoding` names it
// per monthly index; none: float32, as every index made before int8 was).
//
//   float32  384 × 4 B = 1,536 B: the vector as the model gave it
//   int8     a float32 scale, then 384 signed bytes = 388 B: each component
//            rounded to the nearest multiple of (largest |component| / 127), so
//            the largest keeps full range (the vectors are unit length and
//            their components small: a fixed ×127 would keep ~3 bits of each)
//
// Scores are dot products with the float32 query; for int8, the scale times
// the dot product with the bytes. Chosen by measured recall against float32:
// bench/RESULTS.md, "Vectors".

export type VectorEncoding = "float32" | "int8";

/** What new vectors are stored as. */
export const STORED_ENCODING: VectorEncoding = "int8";

export function encodeVector(vector: Float32Array, encoding: VectorEncoding): Buffer {
  if (encoding === "float32") return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  const out = Buffer.alloc(4 + vector.length);
  let max = 0;
  for (let d = 0; d < vector.length; d++) max = Math.max(max, Math.abs(vector[d] as number));
  const scale = max / 127;
  out.writeFloatLE(scale, 0);
  if (scale > 0) for (let d = 0; d < vector.length; d++) out.writeInt8(Math.round((vector[d] as number) / scale), 4 + d);
  return out;
}

/** A stored vector as float32 (a copy). */
export function decodeVector(blob: Buffer, encoding: VectorEncoding): Float32Array {
  if (encoding === "float32") {
    const copy = new Uint8Array(blob);
    return new Float32Array(copy.buffer, 0, copy.byteLength >>> 2);
  }
  const scale = blob.readFloatLE(0);
  const out = new Float32Array(blob.byteLength - 4);
  for (let d = 0; d < out.length; d++) out[d] = blob.readInt8(4 + d) * scale;
  return out;
}

/** The dot product of a stored vector with the query. */
export function dotStored(blob: Buffer, encoding: VectorEncoding, query: Float32Array): number {
  const dim = query.length;
  let score = 0;
  if (encoding === "float32") {
    const v = blob.byteOffset % 4 === 0 ? new Float32Array(blob.buffer, blob.byteOffset, dim) : decodeVector(blob, encoding);
    for (let d = 0; d < dim; d++) score += (v[d] as number) * (query[d] as number);
    return score;
  }
  const bytes = new Int8Array(blob.buffer, blob.byteOffset + 4, dim);
  for (let d = 0; d < dim; d++) score += (bytes[d] as number) * (query[d] as number);
  return score * blob.readFloatLE(0);
}

/**
 * The int8 components of a vector, for the graph (its cosine ignores the scale): a view of an int8 blob, else the
 * vector quantised.
 */
export function int8Components(blob: Buffer, encoding: VectorEncoding): Int8Array {
  const int8 = encoding === "int8" ? blob : encodeVector(decodeVector(blob, encoding), "int8");
  return new Int8Array(int8.buffer, int8.byteOffset + 4, int8.byteLength - 4);
}

/** A query's int8 components, to search a graph of int8 vectors. */
export function int8Query(query: Float32Array): Int8Array {
  return int8Components(encodeVector(query, "int8"), "int8");
}
