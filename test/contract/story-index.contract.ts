import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import { candidateBatches } from "../../src/domain/billing/index-usage.js";
import { passesCandidateCheck } from "../../src/domain/candidate-check.js";
import { foldValue } from "../../src/domain/filter-fields.js";
import type { CandidateCheck } from "../../src/domain/search-query.js";
import { headlineKey } from "../../src/domain/stories/headline-key.js";
import { bySize, type SizedStory, type SizeOrder } from "../../src/domain/stories/story-order.js";
import type { ArticleSearch } from "../../src/ports/article-search.js";
import type { StoryIndex, StoryMatch } from "../../src/ports/story-index.js";
import { readArticles, words } from "../support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import type { IndexFactory, IndexFixture } from "./index-fixture.js";

// What every StoryIndex adapter must do, on real GKG records from two months.
// Stories are assigned here, not by the clusterer: this is the index's part.

/** Members earliest first, ties by id: the order a story's first reporter and representative are chosen in. */
function earliestFirst(a: ArticleDetail, b: ArticleDetail): number {
  const [x, y] = [a.published_at as string, b.published_at as string];
  return x !== y ? (x < y ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function articleFields(a: ArticleDetail): {
  id: string;
  title: string | null;
  url: string | null;
  source: string | null;
  published_at: string;
} {
  return { id: a.id, title: a.title, url: a.url, source: a.source, published_at: a.published_at as string };
}

export function describeStoryIndexContract(name: string, create: IndexFactory<ArticleSearch & StoryIndex>): void {
  describe(`StoryIndex contract: ${name}`, () => {
    let fixture: IndexFixture<ArticleSearch & StoryIndex>;
    let articles: ArticleDetail[];
    /** Five articles of the 2023 batch. */
    let local: ArticleDetail[];
    /** Two articles of 2016 and two of 2023: a story across two monthly indexes. */
    let spanning: ArticleDetail[];
    const storyOf = (a: ArticleDetail): string => a.story_id as string;

    beforeAll(async () => {
      fixture = await create();
      const recent = await readArticles([SAMPLE_FILES.batch2023]);
      const older = await readArticles([SAMPLE_FILES.batch2016]);
      articles = [...older, ...recent];
      for (const a of articles) a.story_id = a.id;
      local = recent.slice(10, 15);
      spanning = [...older.slice(0, 2), ...recent.slice(20, 22)];
      // Two articles of the newest time in one story: the one with the largest id of that time, and the smallest. Read
      // newest first by article id, the story is met first, yet it ranks after every other story of that time.
      const newestTime = recent.map((a) => a.published_at as string).reduce((x, y) => (y > x ? y : x));
      const atNewest = recent
        .filter((a) => a.published_at === newestTime && !local.includes(a) && !spanning.includes(a))
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      const tied = [atNewest[0] as ArticleDetail, atNewest[atNewest.length - 1] as ArticleDetail];
      // The same outlet covers the spanning story in both months: its outlets are a union, not a sum.
      (spanning[1] as ArticleDetail).source = (spanning[2] as ArticleDetail).source;
      // The local story's two latest members share a headline: the most shared one, not the earliest, represents it.
      const [, , , later, latest] = [...local].sort(earliestFirst);
      (later as ArticleDetail).title = (latest as ArticleDetail).title;
      for (const group of [local, spanning, tied]) {
        const id = group.map((a) => a.id).reduce((x, y) => (y < x ? y : x));
        for (const a of group) a.story_id = id;
      }
      await fixture.index.write(articles);
    });

    afterAll(async () => {
      await fixture.dispose();
    });

    it("matches every story once on a browse, with its newest member's time", async () => {
      const { stories, partitionsFailed } = await fixture.index.matchStories({ filters: {} });
      expect(partitionsFailed).toEqual([]);
      expect(stories.length).toBe(new Set(articles.map(storyOf)).size);
      expect(new Set(stories.map((s) => s.story_id)).size).toBe(stories.length);
      const spanningStory = stories.find((s) => s.story_id === storyOf(spanning[0] as ArticleDetail));
      expect(spanningStory?.newest).toBe(spanning.map((a) => a.published_at as string).reduce((x, y) => (y > x ? y : x)));
      expect(spanningStory?.score).toBeUndefined();
    });

    it("matches the stories of the articles a keyword search and filters match, with a score", async () => {
      const expected = new Set<string | null>();
      for (let offset = 0, total = 1; offset < total; offset += 100) {
        const page = await fixture.index.search({ keywords: words("police"), filters: {}, offset, limit: 100 });
        for (const hit of page.hits) expected.add(hit.article.story_id);
        total = page.total;
      }
      expect(expected.size).toBeGreaterThan(1);
      const { stories } = await fixture.index.matchStories({ keywords: words("police"), filters: {} });
      expect(new Set(stories.map((s) => s.story_id))).toEqual(expected);
      for (const s of stories) expect(s.score).toBeGreaterThan(0);

      const source = (spanning[2] as ArticleDetail).source as string;
      const bySource = await fixture.index.matchStories({ filters: { source: source.toUpperCase() } });
      expect(new Set(bySource.stories.map((s) => s.story_id))).toEqual(
        new Set(articles.filter((a) => a.source === source).map(storyOf)),
      );
    });

    it("matches the stories of the articles passing a geographic check, and says what checking them took", async () => {
      const located = articles.flatMap((a) =>
        a.location_details.filter((l) => l.kind === "city" && l.latitude !== null && l.longitude !== null),
      );
      const city = located[Math.floor(located.length / 3)];
      const check: CandidateCheck = {
        area: { kind: "near", latitude: city?.latitude as number, longitude: city?.longitude as number, radius_km: 50 },
      };
      const expected = new Set(articles.filter((a) => passesCandidateCheck(a, check)).map(storyOf));
      expect(expected.size).toBeGreaterThan(0);
      const found = await fixture.index.matchStories({ filters: {}, check });
      expect(found.candidates?.approximate).toBe(false);
      expect(new Set(found.stories.map((s) => s.story_id))).toEqual(expected);
      expect(found.total).toBe(expected.size);
      // Spec section 4, rule 6: batches of 500, up to 2,000 candidates.
      expect(candidateBatches(found.usage)).toBeGreaterThanOrEqual(1);
      expect(candidateBatches(found.usage)).toBeLessThanOrEqual(4);
    });

    it("keeps only stories with a member inside the window", async () => {
      const from = (spanning[0] as ArticleDetail).published_at as string;
      const to = from.slice(0, 8) + "235959";
      const { stories } = await fixture.index.matchStories({ filters: { from, to } });
      const inWindow = articles.filter((a) => (a.published_at as string) >= from && (a.published_at as string) <= to);
      expect(new Set(stories.map((s) => s.story_id))).toEqual(new Set(inWindow.map(storyOf)));
      expect(stories.map((s) => s.story_id)).toContain(storyOf(spanning[0] as ArticleDetail));
    });

    it("finds the stories with the newest matches and the total without reading the rest, ties included", async () => {
      const byRecency = (a: StoryMatch, b: StoryMatch): number =>
        a.newest !== b.newest ? (a.newest < b.newest ? 1 : -1) : a.story_id < b.story_id ? 1 : -1;
      const from = (spanning[0] as ArticleDetail).published_at as string;
      for (const filters of [{}, { from }, { source: (spanning[2] as ArticleDetail).source as string }]) {
        const all = await fixture.index.matchStories({ filters });
        const expected = [...all.stories].sort(byRecency);
        expect(all.total).toBe(all.stories.length);
        for (const newest of [1, 3, 40]) {
          const found = await fixture.index.matchStories({ filters, newest });
          expect(found.total).toBe(all.total);
          expect([...found.stories].sort(byRecency).slice(0, newest)).toEqual(expected.slice(0, newest));
        }
      }
    });

    /** A story's size as a reader counting its members would find it. */
    const expectedSize = (storyId: string, from: string | undefined): { count: number; outlets: number } => {
      const members = articles.filter(
        (a) => storyOf(a) === storyId && (from === undefined || (a.published_at as string) >= from),
      );
      return { count: members.length, outlets: new Set(members.flatMap((a) => (a.source ? [a.source] : []))).size };
    };
    /** Bounds that leave out a whole month, cut into a month, or keep everything. */
    const bounds = (): Array<string | undefined> => {
      const times = articles.map((a) => a.published_at as string).sort();
      const recent = times.filter((t) => t >= ((spanning[2] as ArticleDetail).published_at as string).slice(0, 6));
      return [
        undefined,
        times[0],
        (spanning[2] as ArticleDetail).id.slice(0, 8) + "000000",
        recent[Math.floor(recent.length / 2)],
      ];
    };

    it("sizes stories across monthly indexes, counting members from a bound", async () => {
      // A story asked for twice is counted once.
      const ids = [
        storyOf(spanning[0] as ArticleDetail),
        storyOf(local[0] as ArticleDetail),
        (articles[5] as ArticleDetail).id,
        storyOf(local[0] as ArticleDetail),
      ];
      const { sizes, partitionsFailed } = await fixture.index.storySizes(ids, undefined);
      expect(partitionsFailed).toEqual([]);
      expect(sizes.get(ids[0] as string)).toEqual({ count: 4, outlets: new Set(spanning.map((a) => a.source)).size });
      expect(sizes.get(ids[0] as string)?.outlets).toBe(3);
      expect(sizes.get(ids[1] as string)?.count).toBe(5);
      expect(sizes.get(ids[2] as string)?.count).toBe(1);
      const recentOnly = await fixture.index.storySizes(ids, (spanning[2] as ArticleDetail).id.slice(0, 8) + "000000");
      expect(recentOnly.sizes.get(ids[0] as string)).toEqual({ count: 2, outlets: 2 });
      expect((await fixture.index.storySizes([], undefined)).sizes.size).toBe(0);
    });

    it("sizes every story as its members count, whichever monthly indexes the bound leaves whole", async () => {
      const ids = [...new Set(articles.map(storyOf))];
      // Thousands more ids of stories that do not exist: an index may size a long list another way than a short one.
      const absent = Array.from({ length: 3_000 }, (_, i) => `20160101000000-absent${i}`);
      for (const asked of [ids, [...absent, ...ids]]) {
        for (const from of bounds()) {
          const { sizes } = await fixture.index.storySizes(asked, from);
          expect(sizes.size).toBe(asked.length);
          for (const id of asked) expect({ id, from, ...sizes.get(id) }).toEqual({ id, from, ...expectedSize(id, from) });
        }
      }
    });

    it("lists the largest stories in order with the total, whatever the window, the reach and the filters", async () => {
      const source = (spanning[2] as ArticleDetail).source as string;
      const monthStart = ((spanning[2] as ArticleDetail).id.slice(0, 6) + "01000000") as string;
      const cut = (spanning[3] as ArticleDetail).published_at as string;
      // The oldest article of the newer monthly index: a window from it leaves that index whole and the older one out.
      const newerMonth = (spanning[2] as ArticleDetail).id.slice(0, 6);
      const newerOldest = articles
        .filter((a) => a.id.startsWith(newerMonth))
        .map((a) => a.published_at as string)
        .reduce((x, y) => (y < x ? y : x));
      /** The stories a reader of every article would list. */
      const expected = (
        filters: { from?: string; source?: string },
        order: SizeOrder,
        sizesFrom: string | undefined,
      ): SizedStory[] => {
        const newest = new Map<string, string>();
        for (const a of articles) {
          const at = a.published_at as string;
          if ((filters.from !== undefined && at < filters.from) || (filters.source !== undefined && a.source !== filters.source))
            continue;
          if (at > (newest.get(storyOf(a)) ?? "")) newest.set(storyOf(a), at);
        }
        return [...newest]
          .map(([story_id, at]) => ({ story_id, newest: at, ...expectedSize(story_id, sizesFrom) }))
          .sort(bySize(order));
      };
      for (const order of ["count", "outlets"] as const) {
        for (const filters of [{}, { from: newerOldest }, { from: monthStart }, { from: cut }, { source }]) {
          for (const sizesFrom of [undefined, newerOldest, cut]) {
            const want = expected(filters, order, sizesFrom);
            for (const n of [1, 3, 1_000]) {
              const found = await fixture.index.largestStories({ filters }, order, n, sizesFrom);
              expect(found.partitionsFailed).toEqual([]);
              expect({ filters, sizesFrom, n, total: found.total }).toEqual({ filters, sizesFrom, n, total: want.length });
              expect(found.stories).toEqual(want.slice(0, n));
            }
          }
        }
      }
      // The story across two monthly indexes counts its outlets as a union, not a sum.
      const { stories } = await fixture.index.largestStories({ filters: {} }, "outlets", 1_000, undefined);
      expect(stories.find((s) => s.story_id === storyOf(spanning[0] as ArticleDetail))).toMatchObject({ count: 4, outlets: 3 });
    });

    /** A story as a reader of all its members in the window would describe it (ports/story-index.ts StoryOverview). */
    const expectedOverview = (storyId: string, window: { from?: string; to?: string }, limit: number, sources: number) => {
      const members = articles
        .filter((a) => storyOf(a) === storyId)
        .filter(
          (a) =>
            (window.from === undefined || (a.published_at as string) >= window.from) &&
            (window.to === undefined || (a.published_at as string) <= window.to),
        )
        .sort(earliestFirst);
      if (members.length === 0) return undefined;
      const bySource = new Map<string, { value: string; n: number }>();
      for (const a of members) {
        if (!a.source) continue;
        const seen = bySource.get(foldValue(a.source));
        if (seen) seen.n++;
        else bySource.set(foldValue(a.source), { value: a.source, n: 1 });
      }
      const byHeadline = new Map<string, number>();
      for (const a of members) {
        const key = headlineKey(a.title, a.source);
        if (key !== null) byHeadline.set(key, (byHeadline.get(key) ?? 0) + 1);
      }
      const most = Math.max(0, ...byHeadline.values());
      const representative =
        members.find((a) => byHeadline.size > 0 && byHeadline.get(headlineKey(a.title, a.source) ?? "\u0000") === most) ??
        (members[0] as ArticleDetail);
      return {
        story_id: storyId,
        count: members.length,
        outlets: bySource.size,
        sources: [...bySource]
          .sort(([ka, a], [kb, b]) => b.n - a.n || (ka < kb ? -1 : 1))
          .slice(0, sources)
          .map(([, s]) => s.value),
        representative: representative.id,
        first_reported: (members[0] as ArticleDetail).id,
        listed: members
          .slice(Math.max(0, members.length - limit))
          .reverse()
          .map((a) => a.id),
      };
    };
    const overviewOf = async (storyId: string, window: { from?: string; to?: string }, limit: number, sources: number) => {
      const { story, partitionsFailed } = await fixture.index.storyOverview(storyId, window, { limit, sources });
      expect(partitionsFailed).toEqual([]);
      if (story === undefined) return undefined;
      const { representative, first_reported, listed, ...counts } = story;
      expect(representative).toMatchObject(articleFields(articles.find((a) => a.id === representative.id) as ArticleDetail));
      expect(first_reported).toMatchObject(articleFields(articles.find((a) => a.id === first_reported.id) as ArticleDetail));
      return { ...counts, representative: representative.id, first_reported: first_reported.id, listed: listed.map((a) => a.id) };
    };
    /** Windows that keep every monthly index whole, leave one out, or cut into one. */
    const windows = (): Array<{ from?: string; to?: string }> => {
      const cut = bounds()[3] as string;
      return [{}, { from: (spanning[2] as ArticleDetail).id.slice(0, 8) + "000000" }, { from: cut }, { to: cut }];
    };

    it("describes a story in a window: counts, top publishers, representative, first reporter, newest members", async () => {
      const storyIds = [
        storyOf(spanning[0] as ArticleDetail),
        storyOf(local[0] as ArticleDetail),
        (articles[7] as ArticleDetail).id,
      ];
      for (const window of windows()) {
        for (const id of storyIds) {
          for (const [limit, sources] of [
            [3, 20],
            [1, 1],
            [0, 2],
          ] as const) {
            expect(await overviewOf(id, window, limit, sources)).toEqual(expectedOverview(id, window, limit, sources));
          }
        }
      }
      const localStory = expectedOverview(storyOf(local[0] as ArticleDetail), {}, 5, 20);
      expect(localStory?.representative).not.toBe(localStory?.first_reported);
      expect((await overviewOf(storyOf(spanning[0] as ArticleDetail), {}, 10, 20))?.outlets).toBe(3);
      expect(await overviewOf("20991231000000-1", {}, 10, 20)).toBeUndefined();
    });

    it("describes a listing's page of stories as each alone, in the order asked", async () => {
      const storyIds = [
        (articles[7] as ArticleDetail).id,
        "20991231000000-1",
        storyOf(local[0] as ArticleDetail),
        storyOf(spanning[0] as ArticleDetail),
      ];
      for (const window of windows()) {
        const page = await fixture.index.storyOverviews(storyIds, window, { limit: 0, sources: 2 });
        const alone = await Promise.all(storyIds.map((id) => fixture.index.storyOverview(id, window, { limit: 0, sources: 2 })));
        expect(page.map((found) => found.story)).toEqual(alone.map((found) => found.story));
        expect(page[1]?.story).toBeUndefined();
        expect(page[3]?.story?.story_id).toBe(storyIds[3]);
      }
    });

    it("moves articles to the story they were relabelled into, everywhere", async () => {
      const into = storyOf(spanning[0] as ArticleDetail);
      const absorbed = storyOf(local[0] as ArticleDetail);
      await fixture.index.relabel([{ story_id: into, article_ids: local.map((a) => a.id) }]);
      for (const a of local) a.story_id = into;
      const { sizes } = await fixture.index.storySizes([into, absorbed], undefined);
      expect(sizes.get(into)?.count).toBe(9);
      expect(sizes.get(absorbed)?.count).toBe(0);
      const { stories } = await fixture.index.matchStories({ filters: {} });
      expect(stories.map((s) => s.story_id)).not.toContain(absorbed);
      expect((await fixture.index.matchStories({ filters: {}, newest: 1 })).total).toBe(stories.length);
      const moved = await fixture.index.getArticle((local[1] as ArticleDetail).id);
      expect(moved.status === "found" && moved.article.story_id).toBe(into);
    });

    it("describes a story after a relabel as its members in every monthly index", async () => {
      const into = storyOf(spanning[0] as ArticleDetail);
      for (const window of windows()) {
        expect(await overviewOf(into, window, 4, 3)).toEqual(expectedOverview(into, window, 4, 3));
      }
      // The absorbed story's id leads to the story its articles joined.
      const absorbed = (await fixture.index.storyOverview((local[0] as ArticleDetail).id, {}, { limit: 1, sources: 1 })).story;
      expect(absorbed?.story_id).toBe(into);
      expect(absorbed?.count).toBe(9);
    });

    it("sizes stories after a relabel as their members count, and moves their newest member with them", async () => {
      // Two members of the spanning story leave it for a story of their own (the absorbed one's id is free again).
      const leaving = [spanning[2], spanning[3]] as ArticleDetail[];
      const own = (leaving[0] as ArticleDetail).id;
      await fixture.index.relabel([{ story_id: own, article_ids: leaving.map((a) => a.id) }]);
      for (const a of leaving) a.story_id = own;
      const ids = [...new Set(articles.map(storyOf))];
      for (const from of bounds()) {
        const { sizes } = await fixture.index.storySizes([...ids, storyOf(local[0] as ArticleDetail)], from);
        for (const id of ids) expect({ id, from, ...sizes.get(id) }).toEqual({ id, from, ...expectedSize(id, from) });
      }
      const newest = (id: string): string =>
        articles
          .filter((a) => storyOf(a) === id)
          .map((a) => a.published_at as string)
          .reduce((x, y) => (y > x ? y : x));
      const { stories } = await fixture.index.matchStories({ filters: {} });
      for (const id of [own, storyOf(spanning[0] as ArticleDetail)]) {
        expect(stories.find((s) => s.story_id === id)?.newest).toBe(newest(id));
      }
    });
  });
}
