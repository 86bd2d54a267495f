import type { ArticlePartition } from "./article-partition.js";
import { encodeVector, decodeVector, STORED_ENCODING, type VectorEncoding } from "./vector-codec.js";

// The vectors of one monthly index (semantic ranking, /similar). They arrive
// after keyword indexing, from the embedding stage (embedding-worker.ts), in
// rowid order, so "embedded" is a prefix of the articles: everything up to the
// largest rowid in `article_vectors`. The table is created on first use, and
// meta `embedding_model` names the model the vectors were made with; the index
// format (SCHEMA_VERSION) is unchanged, and a file without the table simply
// has nothing embedded yet. A NULL embedding marks an article with no text to
// embed (no headline and no names). Meta `vector_encoding` says how the vectors
// are held (vector-codec.ts); an index without it holds float32, is read as
// such, and is re-encoded when embedding resumes there.

export const VECTORS_SCHEMA = `CREATE TABLE IF NOT EXISTS article_vectors (rowid INTEGER PRIMARY KEY, embedding BLOB)`;
export const MODEL_KEY = "embedding_model";
export const ENCODING_KEY = "vector_encoding";

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

/** How the stored vectors are held: float32 when meta does not say (indexes made before int8). */
export function vectorEncoding(partition: ArticlePartition): VectorEncoding {
  const held = partition.statements.get(`SELECT value FROM meta WHERE key = '${ENCODING_KEY}'`).pluck().get() as
    string | undefined;
  return held === "int8" ? "int8" : "float32";
}

/**
 * Re-encodes every stored vector as `STORED_ENCODING` and says so in meta, in the caller's transaction (a float32
 * index whose embedding resumes: one encoding per table, no re-embedding).
 */
export function reencodeVectors(partition: ArticlePartition): void {
  const from = vectorEncoding(partition);
  if (from !== STORED_ENCODING) {
    const update = partition.statements.get("UPDATE article_vectors SET embedding = ? WHERE rowid = ?");
    const rows = partition.statements
      .get("SELECT rowid, embedding FROM article_vectors WHERE embedding IS NOT NULL")
      .all() as Array<{ rowid: number; embedding: Buffer }>;
    for (const row of rows) update.run(encodeVector(decodeVector(row.embedding, from), STORED_ENCODING), row.rowid);
  }
  partition.statements.get("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(ENCODING_KEY, STORED_ENCODING);
}
