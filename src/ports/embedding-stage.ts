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
   * Brings the index's nearest-neighbour structure up to date with its stored
   * vectors (built from them when missing or stale); returns the vectors it
   * added, 0 when it was up to date. `threads`: native threads the build may use.
   */
  indexVectors(month: string, threads?: number): Promise<number>;
  close(): Promise<void>;
}
