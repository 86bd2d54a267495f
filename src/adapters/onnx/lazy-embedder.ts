import type { Embedder } from "../../ports/embedder.js";
import { readModelCard } from "./onnx-embedder.js";
import { ParallelEmbedder } from "./parallel-embedder.js";

// The query embedder of a server: the model is loaded on the first semantic
// query (or by warm()), so a server that never ranks semantically never pays
// for it. ONNX runs a query off the event loop (the session's own threads).

export class LazyEmbedder implements Embedder {
  readonly model: string;
  private loaded: Promise<ParallelEmbedder> | undefined;

  /** `sessions`: model sessions embedding at once, one thread each (a query is one text: one). */
  constructor(
    private readonly dir: string,
    private readonly sessions = 1,
  ) {
    this.model = readModelCard(dir).name;
  }

  /** Starts loading the model now; a failure is reported by the first query. */
  warm(): void {
    this.load().catch(() => undefined);
  }

  async embed(texts: readonly string[], role: "query" | "passage"): Promise<Float32Array[]> {
    return (await this.load()).embed(texts, role);
  }

  private load(): Promise<ParallelEmbedder> {
    this.loaded ??= ParallelEmbedder.load(this.dir, this.sessions);
    this.loaded.catch(() => (this.loaded = undefined));
    return this.loaded;
  }

  async close(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = undefined;
    if (loaded) await (await loaded.catch(() => undefined))?.close();
  }
}
