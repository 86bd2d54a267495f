import { FILTER_FIELDS } from "../../domain/filter-fields.js";

// The `terms` blob of an article row (its doc values): the ids of every filter
// value the article carries, each id seq * 32 + field code (partition-schema.ts).
// Its story's term first, as 4 bytes little-endian (0, no term's id, when it
// is in none), so SQL reads it with substr(terms, 1, 4) (partition-aggregate.ts);
// then every other id, ascending, each as its difference from the one before
// (the first from 0) in LEB128: 7 bits a byte, the high bit set on every byte
// but a number's last. About 1.5 bytes an id instead of 4. Every reader and
// writer of the blob goes through here.

const STORY_CODE = FILTER_FIELDS.story_id.code;
/** Bytes of the story's term at the start of the blob. */
const STORY_BYTES = 4;

/** Where decodeTerms writes: grown as needed, reused by every call on this thread. */
let scratch = new Uint32Array(256);

/**
 * A `terms` blob as term ids: the story's first (when it has one), then the others ascending. A view of a buffer
 * the next call overwrites (a facet count decodes a blob per match, and allocating each was most of its cost):
 * copy it (`Uint32Array.from`) to keep it.
 */
export function decodeTerms(blob: Uint8Array): Uint32Array {
  const length = blob.length;
  if (length < STORY_BYTES) return scratch.subarray(0, 0);
  // Every id takes at least a byte.
  if (scratch.length < length) scratch = new Uint32Array(2 * length);
  const ids = scratch;
  const story =
    ((blob[0] as number) | ((blob[1] as number) << 8) | ((blob[2] as number) << 16) | ((blob[3] as number) << 24)) >>> 0;
  let at = 0;
  if (story !== 0) ids[at++] = story;
  let id = 0;
  let i = STORY_BYTES;
  while (i < length) {
    // Most differences take one or two bytes; a term id is below 2^32, so five at most.
    let byte = blob[i++] as number;
    let delta = byte & 0x7f;
    let shift = 7;
    while (byte >= 0x80) {
      byte = blob[i++] as number;
      delta += shift < 28 ? (byte & 0x7f) << shift : (byte & 0x7f) * 0x1000_0000;
      shift += 7;
    }
    id += delta;
    ids[at++] = id;
  }
  return ids.subarray(0, at);
}

/** Term ids (any order; at most one of the story field) as the blob stored in the article row. */
export function encodeTerms(ids: Uint32Array): Buffer {
  const out = Buffer.allocUnsafe(STORY_BYTES + ids.length * 5);
  out.writeUInt32LE(termOfField(ids, STORY_CODE) ?? 0, 0);
  const others = ids.filter((id) => fieldOf(id) !== STORY_CODE).sort();
  let at = STORY_BYTES;
  let previous = 0;
  for (let i = 0; i < others.length; i++) {
    const id = others[i] as number;
    let delta = id - previous;
    previous = id;
    while (delta >= 0x80) {
      out[at++] = (delta & 0x7f) | 0x80;
      delta >>>= 7;
    }
    out[at++] = delta;
  }
  return Buffer.from(out.subarray(0, at));
}

/** The field code of a term id. */
export function fieldOf(termId: number): number {
  return termId & 31;
}

/** The article's term of field `code` (the smallest, for a multi-valued field); undefined when it has none. */
export function termOfField(ids: Uint32Array, code: number): number | undefined {
  for (let i = 0; i < ids.length; i++) if (fieldOf(ids[i] as number) === code) return ids[i];
  return undefined;
}
