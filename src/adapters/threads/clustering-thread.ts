import type { StoryFeatures } from "../../domain/stories/story-features.js";
import { besideModule, WorkerRpc } from "./worker-rpc.js";

// A story clustering thread (usecases/stories/story-clusterer.ts ClusteringThread) seen from the ingest thread: the worker module
// beside `adapterModule` (its `cluster-worker`, exporting `serveClustering`)
// opens the same clustering state as the ingest's store and clusters each
// batch it is sent, in order, beside parsing and the index writes.

/** What the ingest thread sends a clustering worker. */
export type ClusterRequest = { kind: "cluster"; batch: readonly StoryFeatures[] } | { kind: "close" };

export class WorkerClusteringThread<Data> {
  private readonly thread: WorkerRpc<ClusterRequest, Array<[string, string]>>;

  /** `adapterModule`: the `import.meta.url` of a module beside the adapter's `cluster-worker`; `data`: what it opens. */
  constructor(adapterModule: string, data: Data) {
    this.thread = new WorkerRpc(
      { module: besideModule(adapterModule, "cluster-worker"), exportName: "serveClustering" },
      "story clustering thread",
      data,
    );
  }

  async cluster(batch: readonly StoryFeatures[]): Promise<Map<string, string>> {
    return new Map(await this.thread.call({ kind: "cluster", batch }));
  }

  /** Once its batches are done: the worker's store commits and closes. */
  async close(): Promise<void> {
    await this.thread.close({ kind: "close" });
  }
}
