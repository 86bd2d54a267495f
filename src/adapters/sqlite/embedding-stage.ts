import type { EmbeddingBacklog, EmbeddingStage } from "../../ports/embedding-stage.js";
import { besideModule, threadModule, WorkerRpc } from "../threads/worker-rpc.js";
import type { EmbedderLoader, EmbeddingRequest, EmbeddingThreadData, StepResult } from "./embedding-worker.js";
import type { VectorStatus } from "./partition-vectors.js";
import { warnRecovered } from "../../shared/caught.js";

// The embedding stage of the embedded shape: model and writes on a thread of
// their own (embedding-worker.ts), started on the first call.

export class SqliteEmbeddingStage implements EmbeddingStage {
  private readonly thread: WorkerRpc<EmbeddingRequest, StepResult | VectorStatus | number | null>;

  constructor(
    readonly model: string,
    modelDir: string,
    loader: EmbedderLoader,
    private readonly months: () => string[],
    private readonly pathOf: (month: string) => string,
    /** Native threads a graph build may use (the backfill command gives it the machine). */
    private readonly indexThreads = 1,
    /** Model sessions embedding at once, one thread each. */
    sessions = 1,
  ) {
    this.thread = new WorkerRpc(
      { module: besideModule(import.meta.url, "embedding-worker"), exportName: "serveEmbedding" },
      "embedding thread",
      // The thread imports the loader itself: the module a thread may load (worker-rpc.ts).
      { modelDir, loader: { ...loader, module: threadModule(loader.module) }, sessions } satisfies EmbeddingThreadData,
    );
  }

  async backlog(): Promise<EmbeddingBacklog[]> {
    const out: EmbeddingBacklog[] = [];
    for (const month of this.months()) {
      try {
        const status = (await this.thread.call({ kind: "status", month, path: this.pathOf(month) })) as VectorStatus;
        out.push(this.backlogOf(month, status));
      } catch (error) {
        // Missing, locked or of another layout: nothing to embed there now.
        warnRecovered(`the embedding backlog of ${month}`, error);
      }
    }
    return out;
  }

  async embedNext(month: string, max: number): Promise<{ embedded: number; backlog: EmbeddingBacklog }> {
    const result = (await this.thread.call({ kind: "step", month, path: this.pathOf(month), max })) as StepResult;
    return { embedded: result.embedded, backlog: this.backlogOf(month, result.status) };
  }

  /** Brings the month's HNSW graph up to date with its stored vectors (built from them when missing or stale). */
  async indexVectors(month: string): Promise<number> {
    const threads = this.indexThreads;
    return (await this.thread.call({ kind: "index", month, path: this.pathOf(month), threads })) as number;
  }

  private backlogOf(month: string, status: VectorStatus): EmbeddingBacklog {
    return { month, articles: status.articles, embedded: status.model === this.model ? status.embedded : 0 };
  }

  async close(): Promise<void> {
    await this.thread.close({ kind: "close" }).catch(() => undefined);
  }
}
