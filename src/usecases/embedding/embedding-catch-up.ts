import type { EmbeddingStage } from "../../ports/embedding-stage.js";

// Brings every monthly index's vectors up to date, newest index first (recent
// news is what semantic queries reach most). Used by `newsindex embed` (the
// backfill, with a progress bar) and by the server, which runs it behind
// ingest. Each step is one transaction: killed at any point, the next run
// resumes where the last stored step ended. Then each index's nearest-neighbour
// graph is brought up to date (written once its index is caught up).

/**
 * Articles embedded per step (one model call per distinct token length within it, one transaction). 256 rather than
 * 64: more texts of each length per call, and enough lengths to share out over the model sessions (embedding-bench).
 */
export const EMBED_STEP = 256;

export interface CatchUpProgress {
  /** Articles left to embed when the run started, across every index. */
  total: number;
  done: number;
  month: string;
}

export interface CatchUpOptions {
  onProgress?: (progress: CatchUpProgress) => void;
  /** Checked between steps: true stops the run (the server's shutdown). */
  stopped?: () => boolean;
}

/** Returns the number of articles embedded. */
export async function catchUpEmbeddings(stage: EmbeddingStage, options: CatchUpOptions = {}): Promise<number> {
  const every = await stage.backlog();
  const backlog = every.filter((b) => b.embedded < b.articles);
  const total = backlog.reduce((sum, b) => sum + b.articles - b.embedded, 0);
  let done = 0;
  options.onProgress?.({ total, done, month: backlog[0]?.month ?? "" });
  for (const { month } of backlog) {
    for (;;) {
      if (options.stopped?.()) return done;
      const step = await stage.embedNext(month, EMBED_STEP);
      done += step.embedded;
      options.onProgress?.({ total: Math.max(total, done), done, month });
      if (step.embedded === 0 || step.backlog.embedded >= step.backlog.articles) break;
    }
  }
  // Every index's graph, including those with nothing left to embed (a graph missing or stale is rebuilt).
  for (const { month, embedded } of every) {
    if (options.stopped?.()) return done;
    if (embedded > 0) await stage.indexVectors(month);
  }
  return done;
}
