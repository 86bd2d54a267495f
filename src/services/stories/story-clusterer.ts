import { parentPort, Worker, workerData } from "node:worker_threads";
import type { ArticleDetail } from "../../domain/article.js";
import { MIN_SHARED_WORDS, sameStory, STORY_WINDOW_MS } from "../../domain/stories/same-story.js";
import { storyFeatures, type StoryFeatures } from "../../domain/stories/story-features.js";
import type { StoryStore } from "../../ports/story-store.js";

// Online, incremental story clustering at ingest. An article joins every story
// holding an article that passes the same-story test with it; stories it
// bridges merge. A story's id is its member with the smallest id, so it begins
// with the earliest collection stamp, and the clusters are the connected
// components of the test whatever order the articles arrive in.
//
// Ingest clusters whole batches. Clustering costs the ingest thread about as
// much CPU per article as parsing does, so a store that can be opened again on
// another thread (it names how: StoryStoreRecipe) has the batches after an
// ingest's first clustered on a thread of their own, beside parsing and the
// index writes. Batches are clustered there in order, with the same code, so
// the stories are the same.

/** Articles whose story id changed: the index must relabel them. */
export interface StoryChange {
  story_id: string;
  article_ids: string[];
}

/** How to open a store again on another thread: the module, the class it exports and the constructor's arguments. */
export interface StoryStoreRecipe {
  module: string;
  exportName: string;
  args: unknown[];
}

export class StoryClusterer {
  private thread: ClusterThread | undefined;

  constructor(private readonly store: StoryStore) {}

  /**
   * Clusters one article; returns the relabelling it causes (the article itself included when it joins a story).
   * An article clustered before is given its story again: its index write may have been lost (a crash between the
   * two), and the index keeps the story of an article it already has.
   */
  async add(article: ArticleDetail): Promise<StoryChange | undefined> {
    if (await this.store.has(article.id)) return this.clusteredBefore(article.id);
    return this.join(storyFeatures(article));
  }

  /** `add` of an article whose features are already derived. */
  async addFeatures(features: StoryFeatures): Promise<StoryChange | undefined> {
    if (await this.store.has(features.id)) return this.clusteredBefore(features.id);
    return this.join(features);
  }

  private async clusteredBefore(articleId: string): Promise<StoryChange | undefined> {
    const story = await this.store.storyOf(articleId);
    return story === articleId ? undefined : { story_id: story, article_ids: [articleId] };
  }

  private async join(features: StoryFeatures): Promise<StoryChange | undefined> {
    const candidates =
      features.titleWords.length === 0 ? [] : await this.store.candidates(features, STORY_WINDOW_MS, MIN_SHARED_WORDS);
    await this.store.add(features);
    let story = features.id;
    const moved = new Set<string>();
    // Stories absorbed by the merges below, and the story each went into: the candidates' stories as found are
    // followed through them.
    const mergedInto = new Map<string, string>();
    for (const candidate of candidates) {
      let other = candidate.story;
      for (let into = mergedInto.get(other); into !== undefined; into = mergedInto.get(other)) other = into;
      // A candidate already in the article's story could change nothing: most candidates are earlier copies of the
      // story the first one joined, so they are not tested.
      if (other === story) continue;
      if (!sameStory(features, candidate.features)) continue;
      const merged = await this.store.merge(story, other);
      mergedInto.set(merged.story === story ? other : story, merged.story);
      story = merged.story;
      for (const id of merged.moved) moved.add(id);
    }
    return moved.size === 0 ? undefined : { story_id: story, article_ids: [...moved] };
  }

  /**
   * Clusters a batch in order; resolves to the new story of every article whose story changed, of the batch or
   * earlier. With `onThread`, on the clustering thread when the store has a recipe (started on first use).
   */
  async addBatch(articles: readonly ArticleDetail[], onThread: boolean): Promise<Map<string, string>> {
    const recipe = (this.store as Partial<{ threadRecipe: StoryStoreRecipe }>).threadRecipe;
    if (!onThread || recipe === undefined) return addInOrder(this, articles.map(storyFeatures));
    this.thread ??= new ClusterThread(recipe);
    // The features, not the articles, cross to the thread: copying a whole article costs more than deriving them.
    return this.thread.cluster(articles.map(storyFeatures));
  }

  /** Stops the clustering thread once its batches are done (its store commits and closes). */
  async release(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.close();
  }
}

async function addInOrder(clusterer: StoryClusterer, batch: readonly StoryFeatures[]): Promise<Map<string, string>> {
  const storyOf = new Map<string, string>();
  for (const features of batch) {
    const change = await clusterer.addFeatures(features);
    if (change) for (const id of change.article_ids) storyOf.set(id, change.story_id);
  }
  return storyOf;
}

type ClusterRequest = { id: number; kind: "cluster"; features: readonly StoryFeatures[] } | { id: number; kind: "close" };
type ClusterReply = { id: number; stories: Array<[string, string]> } | { id: number; error: string };

/** The clustering thread, seen from the ingest thread. */
class ClusterThread {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(stories: Array<[string, string]>): void; reject(error: Error): void }>();
  private failure: Error | undefined;

  constructor(recipe: StoryStoreRecipe) {
    this.worker = spawnClusterThread(recipe);
    this.worker.on("message", (reply: ClusterReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if ("error" in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.stories);
    });
    this.worker.on("error", (error) => this.failAll(error));
    this.worker.on("exit", (code) => this.failAll(new Error(`story clustering thread exited (code ${code})`)));
    this.worker.unref();
  }

  async cluster(features: readonly StoryFeatures[]): Promise<Map<string, string>> {
    return new Map(await this.send({ kind: "cluster", features }));
  }

  async close(): Promise<void> {
    try {
      if (this.failure === undefined) await this.send({ kind: "close" });
    } finally {
      await this.worker.terminate();
    }
  }

  private send(
    request: { kind: "cluster"; features: readonly StoryFeatures[] } | { kind: "close" },
  ): Promise<Array<[string, string]>> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Kept alive only while a batch is under way, so an idle thread never holds the process open.
      this.worker.ref();
      this.worker.postMessage({ ...request, id } satisfies ClusterRequest);
    });
  }

  private failAll(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

/** The built `.js` modules in production; from TypeScript sources (tests, tsx), through tsx's loader. */
function spawnClusterThread(recipe: StoryStoreRecipe): Worker {
  const here = import.meta.url;
  const start = `import(${JSON.stringify(here)}).then((m) => m.serveClusterThread())`;
  const code = here.endsWith(".js") ? start : `import("tsx/esm/api").then((tsx) => { tsx.register(); return ${start}; })`;
  return new Worker(code, { eval: true, workerData: { storyStoreRecipe: recipe } });
}

/** The clustering thread's side: opens the store from its recipe and clusters each batch it is sent, in order. */
export async function serveClusterThread(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error("serveClusterThread runs on the story clustering thread");
  const recipe = (workerData as { storyStoreRecipe: StoryStoreRecipe }).storyStoreRecipe;
  const exports = (await import(recipe.module)) as Record<string, new (...args: unknown[]) => StoryStore>;
  const Store = exports[recipe.exportName];
  if (Store === undefined) throw new Error(`${recipe.module} exports no ${recipe.exportName}`);
  const store = new Store(...recipe.args);
  const clusterer = new StoryClusterer(store);
  let queue = Promise.resolve();
  port.on("message", (request: ClusterRequest) => {
    queue = queue.then(async () => {
      let reply: ClusterReply;
      try {
        if (request.kind === "close") {
          await store.close();
          reply = { id: request.id, stories: [] };
        } else {
          reply = { id: request.id, stories: [...(await addInOrder(clusterer, request.features))] };
        }
      } catch (error) {
        reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
      }
      port.postMessage(reply);
    });
  });
}
