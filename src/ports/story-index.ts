import type { ArticleDetail } from "../domain/article.js";
import type { SizedStory, SizeOrder } from "../domain/stories/story-order.js";
import type { IndexUsage } from "../domain/billing/index-usage.js";
import type { ArticleQuery } from "../domain/search-query.js";
import type { CandidatesChecked } from "./article-search.js";
import type { IndexCoverage } from "./index-coverage.js";

// Story queries over the article index: the stories a search matches, their
// sizes, one story's counts, top lists and newest members, and the relabelling
// that clustering causes when stories merge. Answers are counts, top lists and
// ids, never every member, so an engine can give them from aggregations.

/** A member as a story shows it: the representative, the first reporter. */
export interface StoryMember {
  id: string;
  title: string | null;
  url: string | null;
  source: string | null;
  published_at: string;
}

/**
 * One story within a window, as /stories and /stories/{id} show it: counts and
 * top lists over every member in the window, and the newest members in full.
 */
export interface StoryOverview {
  /** The story's id (the story of an article id given in its place). */
  story_id: string;
  /** Members in the window. */
  count: number;
  /** Distinct publisher domains among them. */
  outlets: number;
  /** The publishers with the most members, most first (ties by name), at most the `sources` asked for. */
  sources: string[];
  /** The member standing for the story, by the rule of domain/stories/representative.ts. */
  representative: StoryMember;
  /** The earliest member (ties by id). */
  first_reported: StoryMember;
  /** Full documents of the newest `limit` members, newest first (ties by id, larger first). */
  listed: ArticleDetail[];
}

export interface StoryLookup extends IndexCoverage {
  /** Undefined when no member is in the window (or an index that could hold one failed). */
  story: StoryOverview | undefined;
}

/** A story with at least one article matching a query. */
export interface StoryMatch {
  story_id: string;
  /** The newest matching member's published_at. */
  newest: string;
  /** The best matching member's relevance, on a keyword search. */
  score?: number;
}

export interface StoryMatches extends IndexCoverage {
  /**
   * Every matching story, once, in no particular order; with the query's `newest`, at least the `newest` stories
   * whose newest match is newest (an index may leave out the others).
   */
  stories: StoryMatch[];
  /** How many stories match. */
  total: number;
  /** With geographic or amount filters (CandidateCheck): what checking candidates found (`passed`: stories). */
  candidates?: CandidatesChecked;
  /** What the read took (candidates examined, for the geographic and amount filters' price). */
  usage: IndexUsage;
}

export interface StorySize {
  count: number;
  /** Distinct publisher domains. */
  outlets: number;
}

/** The largest matching stories, in order, with their sizes. */
export interface LargestStories extends IndexCoverage {
  /** The first `n` matching stories by the order (domain/stories/story-order.ts bySize), sized within the reach. */
  stories: SizedStory[];
  /** How many stories match. */
  total: number;
  /** As on StoryMatches. */
  candidates?: CandidatesChecked;
  usage: IndexUsage;
}

export interface StorySizes extends IndexCoverage {
  sizes: Map<string, StorySize>;
}

/**
 * What a story listing matches on: the search's keywords, filters and window; and `newest` when only that many
 * stories, those with the newest matches, are needed besides the total (a list in recency order).
 */
export type StoryQuery = Pick<ArticleQuery, "keywords" | "filters" | "budgetMs" | "check"> & { newest?: number };

export interface StoryRelabel {
  story_id: string;
  article_ids: readonly string[];
}

export interface StoryIndex {
  /** A story's counts, top publishers, representative, first reporter and newest `limit` members within a window. */
  storyOverview(
    storyId: string,
    window: { from?: string | undefined; to?: string | undefined },
    options: { limit: number; sources: number },
  ): Promise<StoryLookup>;
  /**
   * The overviews of a page of stories (a listing), in the order asked: as `storyOverview` for each, answered as
   * one piece of heavy work (an engine may read them together, and cheap calls do not wait behind them).
   */
  storyOverviews(
    storyIds: readonly string[],
    window: { from?: string | undefined; to?: string | undefined },
    options: { limit: number; sources: number },
  ): Promise<StoryLookup[]>;
  /** Every story holding an article that matches the query. */
  matchStories(query: StoryQuery): Promise<StoryMatches>;
  /**
   * The `n` largest stories holding an article that matches the query, by `order`, each sized by its members
   * published at or after `sizesFrom` (the plan's reach: a story's size is not cut by the query's window).
   */
  largestStories(query: StoryQuery, order: SizeOrder, n: number, sizesFrom: string | undefined): Promise<LargestStories>;
  /** Members and outlets of each story, counting members published at or after `from`. */
  storySizes(storyIds: readonly string[], from: string | undefined): Promise<StorySizes>;
  /** Moves articles to the story clustering put them in. */
  relabel(changes: readonly StoryRelabel[]): Promise<void>;
}
