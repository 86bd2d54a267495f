import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import type { IndexBackend } from "../../src/ports/index-backend.js";
import type { StoryIndex, StoryMatch } from "../../src/ports/story-index.js";
import { readArticles, words } from "../support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../support/test-server.js";

// What every StoryIndex adapter must do, on real GKG records from two months.
// Stories are assigned here, not by the clusterer: this is the index's part.

export interface StoryIndexFixture {
  index: IndexBackend & StoryIndex;
  dispose(): Promise<void>;
}

export function describeStoryIndexContract(name: string, create: () => Promise<StoryIndexFixture>): void {
  describe(`StoryIndex contract: ${name}`, () => {
    let fixture: StoryIndexFixture;
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
      expect(sizes.get(ids[0] as string)?.count).toBe(4);
      expect(sizes.get(ids[0] as string)?.sources).toEqual(new Set(spanning.map((a) => a.source)));
      expect(sizes.get(ids[1] as string)?.count).toBe(5);
      expect(sizes.get(ids[2] as string)?.count).toBe(1);
      const recentOnly = await fixture.index.storySizes(ids, (spanning[2] as ArticleDetail).id.slice(0, 8) + "000000");
      expect(recentOnly.sizes.get(ids[0] as string)?.count).toBe(2);
      expect((await fixture.index.storySizes([], undefined)).sizes.size).toBe(0);
    });

    it("lists a story's members newest first, with the newest documents", async () => {
      const found = await fixture.index.storyMembers(storyOf(spanning[0] as ArticleDetail), {}, 3);
      expect(found.members.map((m) => m.id).sort()).toEqual(spanning.map((a) => a.id).sort());
      const times = found.members.map((m) => m.published_at);
      expect([...times].sort().reverse()).toEqual(times);
      expect(found.listed.map((a) => a.id)).toEqual(found.members.slice(0, 3).map((m) => m.id));
    });

    it("moves articles to the story they were relabelled into, everywhere", async () => {
      const into = storyOf(spanning[0] as ArticleDetail);
      const absorbed = storyOf(local[0] as ArticleDetail);
      await fixture.index.relabel([{ story_id: into, article_ids: local.map((a) => a.id) }]);
      const { sizes } = await fixture.index.storySizes([into, absorbed], undefined);
      expect(sizes.get(into)?.count).toBe(9);
      expect(sizes.get(absorbed)?.count).toBe(0);
      const { stories } = await fixture.index.matchStories({ filters: {} });
      expect(stories.map((s) => s.story_id)).not.toContain(absorbed);
      expect((await fixture.index.matchStories({ filters: {}, newest: 1 })).total).toBe(stories.length);
      const moved = await fixture.index.getArticle((local[1] as ArticleDetail).id);
      expect(moved.status === "found" && moved.article.story_id).toBe(into);
    });
  });
}
