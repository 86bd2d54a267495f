import type { StoryMatch, StoryMatches, StoryQuery, LargestStories, StorySize, StorySizes } from "../../../ports/story-index.js";
import { bySize, type SizedStory, type SizeOrder } from "../../../domain/stories/story-order.js";
import { monthOf } from "../../../shared/timestamps.js";
import { monthEndPlusSkew, type MonthlyIndexes } from "../catalog/monthly-indexes.js";
import { toFtsMatch } from "../fts-match.js";
import type { QueryArgs } from "../partition-reads.js";
import type { LargestStoriesPart, StoryMatchRow } from "../partition-stories.js";
import { walkPartitions, type Walk } from "../partition-walker.js";
import type { ReadPool } from "../read-pool.js";
import { absorb, addChecked, queryArgs, readOf, usageOf, type CheckedSum } from "./walk-merge.js";

// Story listings across monthly indexes: the stories a query matches, the
// largest of them, and their sizes, merged here (a story can span indexes).

/** A story's members in one monthly index; `sources` (folded publishers) when read. */
interface StoryPart {
  month: string;
  count: number;
  outlets: number;
  sources?: Set<string>;
}

export class StoryListings {
  constructor(
    private readonly pool: ReadPool,
    private readonly indexes: MonthlyIndexes,
  ) {}

  /**
   * Every story with a match, merged across monthly indexes (newest match,
   * best score). Indexes are read newest first within the query's budget, as
   * a search reads them.
   */
  async matchStories(query: StoryQuery): Promise<StoryMatches> {
    const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
    const args: QueryArgs = queryArgs(query, match);
    let checked: CheckedSum | undefined;
    const options = { lane: "heavy" as const, budgetMs: query.budgetMs, startedMs: Date.now() };
    const stories = new Map<string, StoryMatch>();
    // Stories matched outside those kept: a browse of a whole monthly index keeps only its newest (see newestStories).
    const others = new Set<string>();
    const keep = (story_id: string, found: StoryMatchRow): void => {
      const seen = stories.get(story_id);
      if (seen === undefined) stories.set(story_id, { story_id, ...found });
      else {
        if (found.newest > seen.newest) seen.newest = found.newest;
        if (found.score !== undefined && (seen.score === undefined || found.score > seen.score)) seen.score = found.score;
      }
    };
    const newest = query.newest === undefined ? {} : { newest: query.newest };
    const walk = await walkPartitions(
      this.pool,
      this.indexes.monthsFor(query),
      options,
      (month, deadline) => ({
        job: "storyMatches",
        month,
        args: { ...args, ...newest, ...(deadline === undefined ? {} : { deadline }) },
      }),
      (_month, part) => {
        for (const [story_id, found] of part.stories) keep(story_id, found);
        for (const story_id of part.all ?? []) others.add(story_id);
        if (part.checked) checked = addChecked(checked, part.checked);
      },
    );
    for (const story_id of stories.keys()) others.delete(story_id);
    const found: StoryMatches = {
      stories: [...stories.values()],
      total: stories.size + others.size,
      partitionsRead: walk.read,
      partitionsFailed: walk.failed,
      usage: usageOf(walk, checked),
    };
    if (query.check) {
      const approximate = checked?.approximate ?? false;
      const passed = checked?.passed ?? 0;
      // Stories among the checked candidates; past the cut, the total is scaled like the articles' (partition-candidates.ts).
      found.candidates = { approximate, passed: stories.size };
      if (approximate && passed > 0) found.total = Math.round((stories.size * (checked?.total ?? 0)) / passed);
    }
    return found;
  }

  /**
   * The largest matching stories. A query that takes every article of each
   * monthly index it reads (a browse of the whole corpus or of whole months) is
   * answered from the sizes kept at write time: each index gives its first `n`
   * stories and the stories that began in an earlier index; only those, which
   * span indexes, are sized across them. Any other query matches its stories
   * and sizes every one of them.
   */
  async largestStories(query: StoryQuery, order: SizeOrder, n: number, sizesFrom: string | undefined): Promise<LargestStories> {
    const whole =
      query.keywords === undefined && query.filters.to === undefined && query.check === undefined
        ? await this.largestOfWholeIndexes(query, order, n, sizesFrom)
        : undefined;
    if (whole !== undefined) return whole;
    const matches = await this.matchStories(query);
    const all = await this.storySizes(
      matches.stories.map((s) => s.story_id),
      sizesFrom,
    );
    const stories = matches.stories
      .map((match): SizedStory => ({ ...match, ...(all.sizes.get(match.story_id) ?? { count: 0, outlets: 0 }) }))
      .sort(bySize(order))
      .slice(0, n);
    return {
      stories,
      total: matches.total,
      partitionsRead: matches.partitionsRead,
      partitionsFailed: [...matches.partitionsFailed, ...all.partitionsFailed],
      ...(matches.candidates ? { candidates: matches.candidates } : {}),
      usage: matches.usage,
    };
  }

  /** largestStories from the kept sizes alone; undefined when the query or the reach cuts into a monthly index. */
  private async largestOfWholeIndexes(
    query: StoryQuery,
    order: SizeOrder,
    n: number,
    sizesFrom: string | undefined,
  ): Promise<LargestStories | undefined> {
    const months = this.indexes.monthsFor(query);
    const parts: Array<[string, LargestStoriesPart]> = [];
    let cut = false;
    const walk = await walkPartitions(
      this.pool,
      months,
      { lane: "heavy", budgetMs: query.budgetMs, startedMs: Date.now() },
      (month) => ({
        job: "largestStories",
        month,
        args: { filters: query.filters, order, k: n, ...(sizesFrom === undefined ? {} : { sizesFrom }) },
      }),
      (month, part) => {
        if (part === undefined) cut = true;
        else parts.push([month, part]);
      },
    );
    if (cut) return undefined;
    // A story counted in several indexes: every index after the one it began in lists it as continued.
    const spanning = new Map<string, SizedStory>();
    let total = 0;
    for (const [, part] of parts) {
      total += part.stories - part.continued.length;
      for (const row of part.continued) {
        const seen = spanning.get(row.story_id);
        if (seen === undefined) spanning.set(row.story_id, { ...row });
        else if (row.newest > seen.newest) seen.newest = row.newest;
      }
    }
    // A story that began before the months read is counted once, in none of them as its home.
    for (const story of spanning.keys()) if (!months.includes(monthOf(story))) total++;
    const sized = await this.sizeStories([...spanning.keys()], sizesFrom);
    for (const [story, { count, outlets, newest }] of sized.sizes) {
      const row = spanning.get(story) as SizedStory;
      Object.assign(row, { count, outlets });
      if (newest > row.newest) row.newest = newest;
    }
    const single = parts.flatMap(([, part]) => part.top.filter((row) => !spanning.has(row.story_id)));
    const stories = [...single, ...spanning.values()].sort(bySize(order)).slice(0, n);
    return {
      stories,
      total,
      partitionsRead: readOf(walk),
      partitionsFailed: [...walk.failed, ...sized.partitionsFailed],
      usage: usageOf(walk, undefined),
    };
  }

  /**
   * Members and outlets of each story, from the sizes each monthly index keeps
   * at write time. A monthly index that `from` cuts into counts the members at
   * or after `from` instead. Outlets are exact: a story found in more than one
   * monthly index counts the union of their publishers, since an outlet can
   * cover it in both.
   */
  async storySizes(storyIds: readonly string[], from: string | undefined): Promise<StorySizes> {
    const { sizes, partitionsRead, partitionsFailed } = await this.sizeStories(storyIds, from);
    const counts = new Map([...sizes].map(([story, { count, outlets }]) => [story, { count, outlets }]));
    return { sizes: counts, partitionsRead, partitionsFailed };
  }

  /** storySizes with each story's newest member (the empty string for a story with none). */
  private async sizeStories(
    storyIds: readonly string[],
    from: string | undefined,
  ): Promise<Omit<StorySizes, "sizes"> & { sizes: Map<string, StorySize & { newest: string }> }> {
    const sizes = new Map(storyIds.map((id) => [id, { count: 0, outlets: 0, newest: "" }]));
    if (storyIds.length === 0) return { sizes, partitionsRead: [], partitionsFailed: [] };
    const ids = [...sizes.keys()];
    const parts = new Map<string, StoryPart[]>();
    // A story's id is its earliest member's, so no member was collected in a month before the earliest id's.
    const first = monthOf(ids.reduce((a, b) => (b < a ? b : a)));
    const months = this.indexes.months().filter((m) => m >= first && (from === undefined || monthEndPlusSkew(m) >= from));
    const walk = await walkPartitions(
      this.pool,
      months,
      { lane: "heavy", startedMs: Date.now() },
      (month) => ({ job: "storySizes", month, args: { storyIds: ids, ...(from ? { from } : {}) } }),
      (month, part) => {
        for (const { story, count, outlets, newest, sources } of part.rows) {
          const size = sizes.get(story);
          if (size === undefined) continue;
          if (newest > size.newest) size.newest = newest;
          const found: StoryPart = { month, count, outlets };
          if (sources) found.sources = new Set(sources);
          const seen = parts.get(story);
          if (seen === undefined) parts.set(story, [found]);
          else seen.push(found);
        }
      },
    );
    await this.unionSources(parts, walk);
    for (const [story, found] of parts) {
      const size = sizes.get(story) as StorySize & { newest: string };
      size.count = found.reduce((sum, p) => sum + p.count, 0);
      if (found.length === 1) size.outlets = (found[0] as StoryPart).outlets;
      else size.outlets = new Set(found.flatMap((p) => [...(p.sources ?? [])])).size;
    }
    return { sizes, partitionsRead: readOf(walk), partitionsFailed: walk.failed };
  }

  /** Reads the publishers of each story part that has only their count, for stories found in several monthly indexes. */
  private async unionSources(parts: ReadonlyMap<string, StoryPart[]>, walk: Walk): Promise<void> {
    const byMonth = new Map<string, Map<string, StoryPart>>();
    for (const [story, found] of parts) {
      if (found.length < 2) continue;
      for (const part of found) {
        if (part.sources !== undefined) continue;
        part.sources = new Set();
        let stories = byMonth.get(part.month);
        if (!stories) byMonth.set(part.month, (stories = new Map()));
        stories.set(story, part);
      }
    }
    const read = await walkPartitions(
      this.pool,
      [...byMonth.keys()],
      { lane: "heavy", startedMs: Date.now() },
      (month) => ({ job: "storySourceKeys", month, args: { storyIds: [...(byMonth.get(month)?.keys() ?? [])] } }),
      (month, rows) => {
        const stories = byMonth.get(month);
        for (const { story, source } of rows) stories?.get(story)?.sources?.add(source);
      },
    );
    absorb(walk, read);
  }
}
