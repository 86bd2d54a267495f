import { StoryClusterer } from "../../usecases/stories/story-clusterer.js";
import { serveRequests, threadData } from "../threads/worker-rpc.js";
import { SqliteStoryStore } from "./story-store.js";
import type { ClusterRequest } from "../threads/clustering-thread.js";

// The story clustering thread's side (cluster-thread.ts): its own connection to
// stories.db and a StoryClusterer over it, clustering each batch in the order
// sent, with the same code as the ingest thread, so the stories are the same.

export interface ClusterThreadData {
  storiesPath: string;
  maxHeldArticles: number | undefined;
}

/** Runs on the clustering thread. */
export function serveClustering(): void {
  const { storiesPath, maxHeldArticles } = threadData<ClusterThreadData>();
  const store = new SqliteStoryStore(storiesPath, maxHeldArticles);
  const clusterer = new StoryClusterer(store);
  serveRequests(async (request: ClusterRequest): Promise<Array<[string, string]>> => {
    if (request.kind === "close") {
      await store.close();
      return [];
    }
    return [...(await clusterer.addFeaturesInOrder(request.batch))];
  });
}
