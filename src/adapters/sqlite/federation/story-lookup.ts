import { existsSync } from "node:fs";
import type { ArticleDetail } from "../../../domain/article.js";
import type { StoryLookup } from "../../../ports/story-index.js";
import { warnRecovered } from "../../../shared/caught.js";
import { monthOf } from "../../../shared/timestamps.js";
import { monthEndPlusSkew, type MonthlyIndexes } from "../catalog/monthly-indexes.js";
import { unreadable, walkOf } from "../partition-walker.js";
import { NOT_STARTED, type Lane, type ReadPool } from "../read-pool.js";
import type { StoryDescription } from "../story-description.js";
import { readOf } from "./walk-merge.js";

// One story within a window, across the monthly indexes its members sit in.

export class StoryLookups {
  constructor(
    private readonly pool: ReadPool,
    private readonly indexes: MonthlyIndexes,
  ) {}

  /**
   * One story within a window (ports/story-index.ts), described whole on one
   * read thread (story-description.ts): its members are read as narrow rows,
   * its counts per publisher and headline come from each monthly index's story
   * tables, and documents are read only for the representative, the first
   * reporter and the newest `limit` members. An article id given in
   * place of a story id resolves to that article's story (a story absorbed by
   * a merge lives on in the merged one).
   */
  async storyOverview(
    storyId: string,
    window: { from?: string | undefined; to?: string | undefined },
    options: { limit: number; sources: number },
    lane: Lane = "light",
  ): Promise<StoryLookup> {
    // A story's id is its earliest member's, so no member was collected in a month before the id's.
    const first = /^\d{14}/.test(storyId) ? monthOf(storyId) : "";
    const months = this.indexes
      .months()
      .filter((m) => m >= first && (window.from === undefined || monthEndPlusSkew(m) >= window.from));
    const span = { ...(window.from ? { from: window.from } : {}), ...(window.to ? { to: window.to } : {}) };
    // Described whole on one read thread (story-description.ts).
    let described: StoryDescription = { months: [], held: false };
    if (months.length > 0) {
      try {
        const answer = await this.pool.run(lane, {
          job: "storyDescription",
          month: months[0] as string,
          args: { storyId, months, ...span, limit: options.limit, sources: options.sources },
        });
        if (answer !== NOT_STARTED) described = answer;
      } catch (error) {
        const reason = unreadable(months[0] as string, error).reason;
        described = { months: months.map((month) => ({ month, outcome: "unreadable", reason })), held: false };
      }
    }
    const found = described.story;
    if (!described.held && /^\d{14}/.test(storyId)) {
      const current = await this.storyOfArticle(storyId);
      if (current !== undefined && current !== storyId) return this.storyOverview(current, window, options, lane);
    }
    const walk = walkOf(described.months, undefined);
    return {
      story: found && { ...found, listed: found.listed.map((doc) => JSON.parse(doc) as ArticleDetail) },
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
    };
  }

  /**
   * A listing's page of stories: read on the heavy lane, so that the browses and lookups of the light lane do not
   * queue behind ten stories' descriptions; the stories are read at once, each in the order of the page.
   */
  storyOverviews(
    storyIds: readonly string[],
    window: { from?: string | undefined; to?: string | undefined },
    options: { limit: number; sources: number },
  ): Promise<StoryLookup[]> {
    return Promise.all(storyIds.map((id) => this.storyOverview(id, window, options, "heavy")));
  }

  private async storyOfArticle(articleId: string): Promise<string | undefined> {
    const month = monthOf(articleId);
    if (!existsSync(this.indexes.pathOf(month))) return undefined;
    try {
      const story = await this.pool.run("light", { job: "storyOf", month, args: { articleId } });
      return story === NOT_STARTED ? undefined : story;
    } catch (error) {
      // The article's story is a detail of its answer: without it the article answers alone.
      warnRecovered(`reading the story of ${articleId}`, error);
      return undefined;
    }
  }
}
