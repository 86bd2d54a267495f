import type { ArticleDetail } from "../../domain/article.js";
import { sameStory, STORY_WINDOW_MS } from "../../domain/stories/same-story.js";
import { storyFeatures, type StoryFeatures } from "../../domain/stories/story-features.js";
import { MIN_SHARED_KEYS } from "../../domain/stories/story-keys.js";
import type { StoryStore } from "../../ports/story-store.js";

// Online, incremental story clustering at ingest. An article joins every story
// holding an article that passes the same-story test with it; stories it
// bridges merge. A story's id is its member with the smallest id, so it begins
// with the earliest collection stamp, and the clusters are the connected
// components of the test whatever order the articles arrive in.
//
// Ingest clusters whole batches. Clustering costs the ingest thread about as
// much CPU per article as parsing does, so when the composition root gives a
// clustering thread (one that opens the same store and runs this same code),
// the batches after an ingest's first are clustered there, beside parsing and
// the index writes. Batches are clustered there in order, with the same code,
// so the stories are the same.

/** Articles whose story id changed: the index must relabel them. */
export interface StoryChange {
  story_id: string;
  article_ids: string[];
}

/** Clusters batches on a thread of its own, each with a StoryClusterer over the same store, in the order sent. */
export interface ClusteringThread {
  /** The new story of every article whose story changed, of the batch or earlier. */
  cluster(batch: readonly StoryFeatures[]): Promise<Map<string, string>>;
  /** Once its batches are done: its store commits and closes. */
  close(): Promise<void>;
}

export class StoryClusterer {
  private thread: ClusteringThread | undefined;

  /** `startThread`: starts the clustering thread, on first use; without it every batch is clustered here. */
  constructor(
    private readonly store: StoryStore,
    private readonly startThread?: () => ClusteringThread,
  ) {}

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
    const candidates = await this.store.candidates(features, STORY_WINDOW_MS, MIN_SHARED_KEYS);
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
   * earlier. With `onThread`, on the clustering thread when there is one (started on first use).
   */
  async addBatch(articles: readonly ArticleDetail[], onThread: boolean): Promise<Map<string, string>> {
    if (!onThread || this.startThread === undefined) return this.addFeaturesInOrder(articles.map(storyFeatures));
    this.thread ??= this.startThread();
    // The features, not the articles, cross to the thread: copying a whole article costs more than deriving them.
    return this.thread.cluster(articles.map(storyFeatures));
  }

  /** Clusters a batch of derived features in order, here: what the clustering thread runs. */
  async addFeaturesInOrder(batch: readonly StoryFeatures[]): Promise<Map<string, string>> {
    return this.store.clusterBatch(batch, async () => {
      const storyOf = new Map<string, string>();
      for (const features of batch) {
        const change = await this.addFeatures(features);
        if (change) for (const id of change.article_ids) storyOf.set(id, change.story_id);
      }
      return storyOf;
    });
  }

  /** Stops the clustering thread once its batches are done (its store commits and closes). */
  async release(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.close();
  }
}
