import type { ArticleDetail } from "../../domain/article.js";
import { MIN_SHARED_WORDS, sameStory, STORY_WINDOW_MS } from "../../domain/stories/same-story.js";
import { storyFeatures } from "../../domain/stories/story-features.js";
import type { StoryStore } from "../../ports/story-store.js";

// Online, incremental story clustering at ingest. An article joins every story
// holding an article that passes the same-story test with it; stories it
// bridges merge. A story's id is its member with the smallest id, so it begins
// with the earliest collection stamp, and the clusters are the connected
// components of the test whatever order the articles arrive in.

/** Articles whose story id changed: the index must relabel them. */
export interface StoryChange {
  story_id: string;
  article_ids: string[];
}

export class StoryClusterer {
  constructor(private readonly store: StoryStore) {}

  /** Clusters one article; returns the relabelling it causes (the article itself included when it joins a story). */
  async add(article: ArticleDetail): Promise<StoryChange | undefined> {
    if (await this.store.has(article.id)) return undefined;
    const features = storyFeatures(article);
    const candidates =
      features.titleWords.length === 0 ? [] : await this.store.candidates(features, STORY_WINDOW_MS, MIN_SHARED_WORDS);
    await this.store.add(features);
    let story = article.id;
    const moved = new Set<string>();
    for (const candidate of candidates) {
      if (!sameStory(features, candidate)) continue;
      const other = await this.store.storyOf(candidate.id);
      if (other === story) continue;
      const merged = await this.store.merge(story, other);
      story = merged.story;
      for (const id of merged.moved) moved.add(id);
    }
    return moved.size === 0 ? undefined : { story_id: story, article_ids: [...moved] };
  }
}
