// Index maintenance: bringing indexes built before a derived vocabulary up to
// date from the articles they store (`newsindex reindex`), resumable where it
// stopped and readable all along; an index records the vocabulary once done.

/** Progress through one index (`YYYYMM`). */
export interface RebuildProgress {
  month: string;
  /** Articles of the index done, of `total`. */
  done: number;
  total: number;
}

export interface RebuildSummary {
  /** Indexes rebuilt. */
  months: string[];
  articles: number;
  /** Indexes that could not be opened, and why. */
  skipped: Array<{ month: string; reason: string }>;
}

export interface IndexMaintenance {
  rebuildDerived(options: {
    /** Articles per step. */
    batch?: number;
    onProgress?: (progress: RebuildProgress) => void;
  }): Promise<RebuildSummary>;
}
