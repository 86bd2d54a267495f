import type { StoryFeatures } from "../../domain/stories/story-features.js";
import { besideModule, WorkerRpc } from "../threads/worker-rpc.js";
import type { ClusterRequest, ClusterThreadData } from "./cluster-worker.js";

// The story clustering thread of the scaled shape, seen from the ingest thread
// (usecases/stories/story-clusterer.ts ClusteringThread): it opens the same
// PostgreSQL clustering state and clusters each batch it is sent, in order
// (cluster-worker.ts), beside parsing and the index writes.

export class PostgresClusteringThread {
  private readonly thread: WorkerRpc<ClusterRequest, Array<[string, string]>>;

  constructor(url: string, schema: string) {
    const data: ClusterThreadData = { url, schema };
    this.thread = new WorkerRpc(
      { module: besideModule(import.meta.url, "cluster-worker"), exportName: "serveClustering" },
      "story clustering thread",
      data,
    );
  }

  async cluster(batch: readonly StoryFeatures[]): Promise<Map<string, string>> {
    return new Map(await this.thread.call({ kind: "cluster", batch }));
  }

  /** Once its batches are done: its store closes. */
  async close(): Promise<void> {
    await this.thread.close({ kind: "close" });
  }
}
