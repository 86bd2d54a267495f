import { StoryClusterer } from "../../usecases/stories/story-clusterer.js";
import { serveRequests, threadData } from "../threads/worker-rpc.js";
import { PostgresStoryStore } from "./story-store.js";
import type { ClusterRequest } from "../threads/clustering-thread.js";

// The story clustering thread's side (cluster-thread.ts): its own connection to
// the PostgreSQL clustering state and a StoryClusterer over it, clustering each
// batch in the order sent, with the same code as the ingest thread, so the
// stories are the same.

export interface ClusterThreadData {
  url: string;
  schema: string;
}

/** Runs on the clustering thread. */
export function serveClustering(): void {
  const { url, schema } = threadData<ClusterThreadData>();
  const opened = PostgresStoryStore.open(url, schema).then((store) => ({ store, clusterer: new StoryClusterer(store) }));
  // A failure to open is reported by the first request.
  opened.catch(() => undefined);
  serveRequests(async (request: ClusterRequest): Promise<Array<[string, string]>> => {
    const { store, clusterer } = await opened;
    if (request.kind === "close") {
      await store.close();
      return [];
    }
    return [...(await clusterer.addFeaturesInOrder(request.batch))];
  });
}
