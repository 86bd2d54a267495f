import type { ArticleDetail } from "../domain/article.js";
import type { ArticleQuery } from "../domain/search-query.js";
import type { PartitionFailure } from "./index-backend.js";

// Story queries over the article index: the stories a search matches, their
// sizes, the members of one story, and the relabelling that clustering causes
// when stories merge.

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

/** A story with at least one article matching a query. */
export interface StoryMatch {
  story_id: string;
  /** The newest matching member's published_at. */
  newest: string;
  /** The best matching member's relevance, on a keyword search. */
  score?: number;
}

export interface StoryMatches {
  /**
   * Every matching story, once, in no particular order; with the query's `newest`, at least the `newest` stories
   * whose newest match is newest (an index may leave out the others).
   */
  stories: StoryMatch[];
  /** How many stories match. */
  total: number;
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
}

export interface StorySize {
  count: number;
  /** Distinct publisher domains. */
  sources: Set<string>;
}

export interface StorySizes {
  sizes: Map<string, StorySize>;
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
}

/**
 * What a story listing matches on: the search's keywords, filters and window; and `newest` when only that many
 * stories, those with the newest matches, are needed besides the total (a list in recency order).
 */
export type StoryQuery = Pick<ArticleQuery, "keywords" | "filters" | "budgetMs"> & { newest?: number };

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
  /** Every story holding an article that matches the query. */
  matchStories(query: StoryQuery): Promise<StoryMatches>;
  /** Members and outlets of each story, counting members published at or after `from`. */
  storySizes(storyIds: readonly string[], from: string | undefined): Promise<StorySizes>;
  /** Moves articles to the story clustering put them in. */
  relabel(changes: readonly StoryRelabel[]): Promise<void>;
}
