import type { ArticleDetail } from "../domain/article.js";
import type { PartitionFailure } from "./index-backend.js";

// Story queries over the article index: the members of one story, and the
// relabelling that clustering causes when stories merge.

/** What a story's counts need of every member; full documents only for the listed ones. */
export interface StoryMember {
  id: string;
  title: string | null;
  url: string | null;
  source: string | null;
  published_at: string;
}

export interface StoryMembers {
  /** Every member within the window, newest first. */
  members: StoryMember[];
  /** Full documents of the newest `limit` members, newest first. */
  listed: ArticleDetail[];
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
}

export interface StoryRelabel {
  story_id: string;
  article_ids: readonly string[];
}

export interface StoryIndex {
  /** The members of a story; the story of an article id given in its place (a story absorbed by a merge lives on in the merged one). */
  storyMembers(
    storyId: string,
    window: { from?: string | undefined; to?: string | undefined },
    limit: number,
  ): Promise<StoryMembers>;
  /** Moves articles to the story clustering put them in. */
  relabel(changes: readonly StoryRelabel[]): Promise<void>;
}
