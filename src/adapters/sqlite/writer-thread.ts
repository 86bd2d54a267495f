import { besideModule, WorkerRpc } from "../threads/worker-rpc.js";
import type { PreparedArticle } from "./prepared-article.js";
import type { WriterRequest } from "./writer-worker.js";

// Runs index writes on a worker thread (writer-worker.ts). The ingest thread
// hands over a batch and goes back to parsing; the write's promise settles
// when its transaction has committed. Started on the first write.

export class WriterThread {
  private readonly thread = new WorkerRpc<WriterRequest, number>(
    { module: besideModule(import.meta.url, "writer-worker"), exportName: "serveWriter" },
    "index writer thread",
  );

  write(month: string, path: string, articles: PreparedArticle[]): Promise<number> {
    return this.thread.call({ kind: "write", month, path, articles });
  }

  /** Queued behind the writes sent before it, so it sees them. */
  relabel(month: string, path: string, storyId: string, articleIds: string[]): Promise<number> {
    return this.thread.call({ kind: "relabel", month, path, storyId, articleIds });
  }

  async close(): Promise<void> {
    await this.thread.close({ kind: "close" }).catch(() => undefined);
  }
}
