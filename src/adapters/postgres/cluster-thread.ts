import { WorkerClusteringThread } from "../threads/clustering-thread.js";
import type { ClusterThreadData } from "./cluster-worker.js";

// The scaled shape's clustering thread: its worker (cluster-worker.ts) opens the same PostgreSQL clustering state.

export class PostgresClusteringThread extends WorkerClusteringThread<ClusterThreadData> {
  constructor(url: string, schema: string) {
    super(import.meta.url, { url, schema });
  }
}
