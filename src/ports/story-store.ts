import type { StoryFeatures } from "../domain/stories/story-features.js";

// The clustering state: every clustered article's features, a key index to
// find candidates (story-keys.ts), and which story each article belongs to.

/** A clustered article found as a candidate, with the story it is in when found. */
export interface StoryCandidate {
  features: StoryFeatures;
  story: string;
}

export interface StoryStore {
  has(articleId: string): Promise<boolean>;
  /**
   * Clustered articles published within `windowMs` of `features` whose index
   * keys include at least `minSharedKeys` of its lookup keys (story-keys.ts),
   * each with its story (so testing them needs no call per candidate). Must be
   * exhaustive: the clusters' independence from arrival order depends on it.
   */
  candidates(features: StoryFeatures, windowMs: number, minSharedKeys: number): Promise<StoryCandidate[]>;
  /** Records an article as a story of its own. */
  add(features: StoryFeatures): Promise<void>;
  storyOf(articleId: string): Promise<string>;
  /** Joins two stories under the smaller id; returns the surviving id and the members that changed story. */
  merge(storyA: string, storyB: string): Promise<{ story: string; moved: string[] }>;
  members(story: string): Promise<string[]>;
  /**
   * Runs `work`, the clustering of `batch` in order through the calls above: a store across a network reads ahead
   * what the batch will ask about and writes the batch's changes together, so a batch costs a few round trips
   * rather than several per article.
   */
  clusterBatch<T>(batch: readonly StoryFeatures[], work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
