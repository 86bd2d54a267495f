// The embedding stage: vectors for the articles keyword indexing has written,
// per monthly index, in the order they were written. Runs behind ingest (an
// article is keyword-searchable first, semantically searchable once
// embedded); resumable at any point.

export interface EmbeddingBacklog {
  /** The monthly index, `YYYYMM`. */
  month: string;
  articles: number;
  /** Articles embedded with the configured model. */
  embedded: number;
}

export interface EmbeddingStage {
  /** The model vectors are made with (ports/embedder.ts `model`). */
  readonly model: string;
  /** Every monthly index's progress, newest first; an index that cannot be read is left out. */
  backlog(): Promise<EmbeddingBacklog[]>;
  /** Embeds and stores the next (at most `max`) articles of one index; returns how many, and its progress after. */
  embedNext(month: string, max: number): Promise<{ embedded: number; backlog: EmbeddingBacklog }>;
  /**
   * Makes the index's stored vectors searchable as a whole (an engine that
   * searches them as they are written has nothing to do); returns the vectors
   * it added, 0 when it was up to date.
   */
  indexVectors(month: string): Promise<number>;
  close(): Promise<void>;
}
