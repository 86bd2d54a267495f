import { Worker } from "node:worker_threads";
import type { PreparedArticle } from "./prepared-article.js";
import type { WriterReply, WriterRequest } from "./writer-worker.js";

// Runs index writes on a worker thread (writer-worker.ts). The ingest thread
// hands over a batch and goes back to parsing; the write's promise settles
// when its transaction has committed. Started on the first write.

type Pending = { resolve(inserted: number): void; reject(error: Error): void };

type Request =
  | { kind: "write"; month: string; path: string; articles: PreparedArticle[] }
  | { kind: "relabel"; month: string; path: string; storyId: string; articleIds: string[] }
  | { kind: "close" };

export class WriterThread {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  write(month: string, path: string, articles: PreparedArticle[]): Promise<number> {
    return this.send({ kind: "write", month, path, articles });
  }

  /** Queued behind the writes sent before it, so it sees them. */
  relabel(month: string, path: string, storyId: string, articleIds: string[]): Promise<number> {
    return this.send({ kind: "relabel", month, path, storyId, articleIds });
  }

  async close(): Promise<void> {
    if (!this.worker) return;
    const worker = this.worker;
    await this.send({ kind: "close" }).catch(() => undefined);
    this.worker = undefined;
    await worker.terminate();
  }

  private send(request: Request): Promise<number> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Kept alive only while a write is under way, so an idle writer never holds the process open.
      worker.ref();
      worker.postMessage({ ...request, id } as WriterRequest);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnWriter();
    worker.on("message", (reply: WriterReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if ("error" in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply.inserted);
    });
    worker.on("error", (error) => this.failAll(worker, error));
    worker.on("exit", (code) => this.failAll(worker, new Error(`index writer thread exited (code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private failAll(worker: Worker, error: Error): void {
    if (this.worker === worker) this.worker = undefined;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

/** The built `.js` worker in production; from TypeScript sources (tests, tsx), through tsx's loader. */
function spawnWriter(): Worker {
  const here = import.meta.url;
  if (here.endsWith(".js")) return new Worker(new URL("./writer-worker.js", here));
  const source = new URL("./writer-worker.ts", here).href;
  return new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`, {
    eval: true,
  });
}
