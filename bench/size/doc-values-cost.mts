// What reading the doc values (the `terms` blob) costs a facet count: every article of a monthly index counted into
// per-field arrays, as FacetCounter does, from the blobs of an index of schema 3 (uint32 ids) and one of schema 4
// (term-blob.ts), nine rounds taken in turn, the best of each, nanoseconds per article.
//   node --import tsx bench/size/doc-values-cost.mts SCHEMA3_INDEX_FILE SCHEMA4_INDEX_FILE

import Database from "better-sqlite3";
import { decodeTerms } from "../../src/adapters/sqlite/term-blob.js";

const [before, after] = process.argv.slice(2);
if (!before || !after) throw new Error("usage: doc-values-cost.mts SCHEMA3_INDEX_FILE SCHEMA4_INDEX_FILE");

function blobsOf(path: string): Buffer[] {
  const db = new Database(path, { readonly: true });
  const blobs = db.prepare("SELECT terms FROM articles").pluck().all() as Buffer[];
  db.close();
  return blobs;
}

/** Schema 3's reader: the blob viewed as uint32 (copied when not aligned). */
function uint32View(blob: Uint8Array): Uint32Array {
  if (blob.byteOffset % 4 === 0) return new Uint32Array(blob.buffer, blob.byteOffset, blob.byteLength >>> 2);
  return new Uint32Array(blob.slice().buffer);
}

const counts: Uint32Array[] = Array.from({ length: 32 }, () => new Uint32Array(1 << 20));

/** One pass over every blob, counting its ids; nanoseconds per article. */
function pass(blobs: readonly Buffer[], decode: (blob: Uint8Array) => Uint32Array): number {
  const started = process.hrtime.bigint();
  for (const blob of blobs) {
    const ids = decode(blob);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      const field = counts[id & 31] as Uint32Array;
      const seq = (id >>> 5) & 0xfffff;
      field[seq] = (field[seq] as number) + 1;
    }
  }
  return Number(process.hrtime.bigint() - started) / blobs.length;
}

const old = blobsOf(before);
const current = blobsOf(after);
// Taken in turn, so both see the same load; the best of each.
let schema3 = Infinity;
let schema4 = Infinity;
for (let round = 0; round < 9; round++) {
  schema3 = Math.min(schema3, pass(old, uint32View));
  schema4 = Math.min(schema4, pass(current, decodeTerms));
}
const bytes = (blobs: readonly Buffer[]) => Math.round(blobs.reduce((sum, b) => sum + b.length, 0) / blobs.length);
console.log(
  JSON.stringify({
    schema3: { ns: Math.round(schema3), bytes: bytes(old) },
    schema4: { ns: Math.round(schema4), bytes: bytes(current) },
    articles: [old.length, current.length],
  }),
);
