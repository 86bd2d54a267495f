// Sentence embeddings for semantic ranking: a query and a passage (the text an
// article is indexed by, domain/embedding-text.ts) become unit vectors whose
// dot product is their cosine similarity. Models run locally from a directory
// shipped with the product or named by the operator; nothing is downloaded.

export interface Embedder {
  /** Names the model and how it is applied; stored with every monthly index's vectors (meta `embedding_model`). */
  readonly model: string;
  /** Unit vectors, one per text, in order. */
  embed(texts: readonly string[], role: "query" | "passage"): Promise<Float32Array[]>;
  close(): Promise<void>;
}
