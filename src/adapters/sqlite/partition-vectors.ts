import type { ArticlePartition } from "./article-partition.js";

// The vectors of one monthly index (semantic ranking, /similar). They arrive
// after keyword indexing, from the embedding stage (embedding-worker.ts), in
// rowid order, so "embedded" is a prefix of the articles: everything up to the
// largest rowid in `article_vectors`. The table is created on first use, and
// meta `embedding_model` names the model the vectors were made with; the index
// format (SCHEMA_VERSION) is unchanged, and a file without the table simply
// has nothing embedded yet. A NULL embedding marks an article with no text to
// embed (no headline and no names).

export const VECTORS_SCHEMA = `CREATE TABLE IF NOT EXISTS article_vectors (rowid INTEGER PRIMARY KEY, embedding BLOB)`;
export const MODEL_KEY = "embedding_model";

export interface VectorStatus {
  /** The model the vectors were made with; undefined before any. */
  model: string | undefined;
  /** Articles in the index. */
  articles: number;
  /** Articles embedded (with `model`). */
  embedded: number;
}

export function hasVectorTable(partition: ArticlePartition): boolean {
  return (
    partition.statements.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'article_vectors'").get() !== undefined
  );
}

/** The model the vectors were made with; undefined before any. */
export function vectorModel(partition: ArticlePartition): string | undefined {
  return partition.statements.get(`SELECT value FROM meta WHERE key = '${MODEL_KEY}'`).pluck().get() as string | undefined;
}

export function vectorStatus(partition: ArticlePartition): VectorStatus {
  const articles = partition.count();
  if (!hasVectorTable(partition)) return { model: undefined, articles, embedded: 0 };
  const model = vectorModel(partition);
  const last = lastEmbedded(partition);
  const embedded = partition.statements.get("SELECT count(*) FROM articles WHERE rowid <= ?").pluck().get(last) as number;
  return { model, articles, embedded };
}

/** The largest embedded rowid; 0 before any. */
export function lastEmbedded(partition: ArticlePartition): number {
  return partition.statements.get("SELECT coalesce(max(rowid), 0) FROM article_vectors").pluck().get() as number;
}

/** A stored vector as a Float32Array: a view of the blob when it is 4-byte aligned, else a copy. */
export function toVector(blob: Buffer): Float32Array {
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength >>> 2);
  const copy = new Uint8Array(blob);
  return new Float32Array(copy.buffer, 0, copy.byteLength >>> 2);
}

export function toBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}
