import { existsSync } from "node:fs";
import type { ArticleDetail } from "../../../domain/article.js";
import { mostSharedHeadlines, RepresentativeChoice } from "../../../domain/stories/representative.js";
import type { StoryLookup, StoryMember, StoryOverview } from "../../../ports/story-index.js";
import { warnRecovered } from "../../../shared/caught.js";
import { monthOf } from "../../../shared/timestamps.js";
import { monthEndPlusSkew, type MonthlyIndexes } from "../catalog/monthly-indexes.js";
import { walkPartitions, type Walk } from "../partition-walker.js";
import { NOT_STARTED, type Lane, type ReadPool } from "../read-pool.js";
import type { MemberFields, StoryMonthOverview } from "../story-overview.js";
import type { FederatedDocuments } from "./federated-documents.js";
import { absorb, byRecency, readOf } from "./walk-merge.js";

// One story within a window, across the monthly indexes its members sit in.

/** Members whose documents are read at a time while looking for a story's representative. */
const REPRESENTATIVE_BATCH = 16;

export class StoryLookups {
  constructor(
    private readonly pool: ReadPool,
    private readonly indexes: MonthlyIndexes,
    private readonly documents: FederatedDocuments,
  ) {}

  /**
   * One story within a window (ports/story-index.ts). Its members are read as
   * narrow rows, its counts per publisher and headline come from each monthly
   * index's story tables, and documents are read only for the representative,
   * the first reporter and the newest `limit` members. An article id given in
   * place of a story id resolves to that article's story (a story absorbed by
   * a merge lives on in the merged one).
   */
  async storyOverview(
    storyId: string,
    window: { from?: string | undefined; to?: string | undefined },
    options: { limit: number; sources: number },
    lane: Lane = "light",
  ): Promise<StoryLookup> {
    const parts: Array<{ month: string; overview: StoryMonthOverview }> = [];
    // A story's id is its earliest member's, so no member was collected in a month before the id's.
    const first = /^\d{14}/.test(storyId) ? monthOf(storyId) : "";
    const months = this.indexes
      .months()
      .filter((m) => m >= first && (window.from === undefined || monthEndPlusSkew(m) >= window.from));
    const span = { ...(window.from ? { from: window.from } : {}), ...(window.to ? { to: window.to } : {}) };
    const walk = await walkPartitions(
      this.pool,
      months,
      { lane, startedMs: Date.now() },
      (month) => ({ job: "storyOverview", month, args: { storyId, ...span } }),
      (month, overview) => {
        if (overview !== undefined) parts.push({ month, overview });
      },
    );
    if (parts.length === 0 && /^\d{14}/.test(storyId)) {
      const current = await this.storyOfArticle(storyId);
      if (current !== undefined && current !== storyId) return this.storyOverview(current, window, options, lane);
    }
    const lookup = (story: StoryOverview | undefined): StoryLookup => ({
      story,
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
    });
    if (parts.length === 0) return lookup(undefined);

    const members = parts.flatMap(({ month, overview }) =>
      overview.members.map(([rowid, id, published_at]) => ({ month, rowid, id, published_at })),
    );
    // Each monthly index lists its members earliest first; only a story in several needs them merged.
    if (parts.length > 1) members.sort((a, b) => -byRecency(a, b));
    const sources = new Map<string, { value: string; articles: number }>();
    const headlines = new Map<string, number>();
    for (const { overview } of parts) {
      for (const { key, value, articles } of overview.sources) {
        const seen = sources.get(key);
        if (seen) seen.articles += articles;
        else sources.set(key, { value, articles });
      }
      for (const { headline, articles } of overview.headlines) headlines.set(headline, (headlines.get(headline) ?? 0) + articles);
    }
    // The representative (domain/stories/representative.ts): documents are read earliest first until it is met.
    const choice = new RepresentativeChoice<StoryMember>(mostSharedHeadlines(headlines));
    let chosen = false;
    for (let at = 0; !chosen && at < members.length; at += REPRESENTATIVE_BATCH) {
      const batch = members.slice(at, at + REPRESENTATIVE_BATCH);
      const fields = await this.memberFields(batch, walk, lane);
      for (const m of batch) {
        const f = fields.get(m.id);
        if (f === undefined) continue;
        chosen = choice.offer({ id: m.id, title: f.title, url: f.url, source: f.source, published_at: m.published_at });
        if (chosen) break;
      }
    }
    const firstReported = choice.first;
    const representative = choice.chosen;
    if (firstReported === undefined || representative === undefined) return lookup(undefined);

    const newest = members.slice(Math.max(0, members.length - options.limit)).reverse();
    const docs = await this.documents.load(newest, walk);
    const listed = newest.flatMap((m) => {
      const doc = docs.get(m.id);
      return doc === undefined ? [] : [JSON.parse(doc) as ArticleDetail];
    });
    return lookup({
      story_id: storyId,
      count: members.length,
      outlets: sources.size,
      sources: [...sources.entries()]
        .sort(([ka, a], [kb, b]) => b.articles - a.articles || (ka < kb ? -1 : ka > kb ? 1 : 0))
        .slice(0, options.sources)
        .map(([, s]) => s.value),
      representative,
      first_reported: firstReported,
      listed,
    });
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

  /** Title, url and publisher of the given members, by article id. */
  private async memberFields(
    members: ReadonlyArray<{ month: string; rowid: number; id: string }>,
    walk: Walk,
    lane: Lane,
  ): Promise<Map<string, MemberFields>> {
    const byMonth = new Map<string, Array<{ rowid: number; id: string }>>();
    for (const m of members) {
      let rows = byMonth.get(m.month);
      if (!rows) byMonth.set(m.month, (rows = []));
      rows.push(m);
    }
    const fields = new Map<string, MemberFields>();
    const read = await walkPartitions(
      this.pool,
      [...byMonth.keys()],
      { lane, startedMs: Date.now() },
      (month) => ({ job: "memberFields", month, args: { rowids: (byMonth.get(month) ?? []).map((m) => m.rowid) } }),
      (month, found) => {
        for (const m of byMonth.get(month) ?? []) {
          const f = found.get(m.rowid);
          if (f) fields.set(m.id, f);
        }
      },
    );
    absorb(walk, read);
    return fields;
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
