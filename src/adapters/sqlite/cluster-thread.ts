import { WorkerClusteringThread } from "../threads/clustering-thread.js";
import type { ClusterThreadData } from "./cluster-worker.js";

// The embedded shape's clustering thread: its worker (cluster-worker.ts) opens the same stories.db.

export class SqliteClusteringThread extends WorkerClusteringThread<ClusterThreadData> {
  constructor(storiesPath: string, maxHeldArticles?: number) {
    super(import.meta.url, { storiesPath, maxHeldArticles });
  }
}
