// The `terms` blob of an article row (its doc values): the ids of every filter
// value the article carries, as little-endian uint32, each id seq * 32 + field
// code (partition-schema.ts). Every reader and writer of the blob goes through
// here.

/** A `terms` blob as term ids: a view of it, copied only when the buffer is not 4-byte aligned. */
export function decodeTerms(blob: Uint8Array): Uint32Array {
  if (blob.byteOffset % 4 === 0) return new Uint32Array(blob.buffer, blob.byteOffset, blob.byteLength >>> 2);
  return new Uint32Array(blob.slice().buffer);
}

/** Term ids as the blob stored in the article row. */
export function encodeTerms(ids: Uint32Array): Buffer {
  return Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength);
}

/** The field code of a term id. */
export function fieldOf(termId: number): number {
  return termId & 31;
}

/** The article's term of field `code` (the first, for a multi-valued field); undefined when it has none. */
export function termOfField(ids: Uint32Array, code: number): number | undefined {
  for (let i = 0; i < ids.length; i++) if (fieldOf(ids[i] as number) === code) return ids[i];
  return undefined;
}
