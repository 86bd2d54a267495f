import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GkgArticleSource } from "../../src/adapters/gdelt/gkg-source.js";
import { OtherClusteringVersionError } from "../../src/adapters/clustering-version.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { storyFeatures, type StoryFeatures } from "../../src/domain/stories/story-features.js";
import type { StoryStore } from "../../src/ports/story-store.js";
import { parseStamp, toStamp } from "../../src/shared/timestamps.js";
import { StoryClusterer } from "../../src/usecases/stories/story-clusterer.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import { shuffled } from "../support/shuffled.js";

// The story clustering state's contract (ports/story-store.ts), run against
// every adapter: what the clusterer relies on (exhaustive candidates within the
// window, merges under the smaller id, state shared by every store opened on
// it, the clustering version guard), then the clusterer itself on real GKG
// records: the same stories whatever the order, the batching, whether days are
// held in memory or counted in the database, and whether two ingests take
// turns. (story-index.contract.ts is the index serving stories, another port.)

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WINDOW = 72 * HOUR;
const T0 = Date.UTC(2023, 6, 2, 15, 30);

/** A clustering state of the adapter under test: empty when made, removed by `dispose`. */
export interface StoryState {
  /** A store on this state; `maxHeldArticles` 0 counts every lookup in the database. */
  open(maxHeldArticles?: number): Promise<StoryStore>;
  /** Records another clustering version in the state, as an older build would have left it. */
  recordVersion(version: string): Promise<void>;
  dispose(): Promise<void>;
}

function features(id: string, timeMs: number, titleWords: string[]): StoryFeatures {
  return {
    id,
    source: null,
    language: null,
    timeMs,
    wordCount: 0,
    titleWords,
    entities: [],
    persons: [],
    headlinePersons: [],
    places: [],
    nameWords: [],
  };
}

/** The real 2023-07-02 15:30 batch spread back over 20 days, then the 2020-02-22 sample (a third translated). */
export async function sampleFeatures(): Promise<StoryFeatures[]> {
  const source = await GkgArticleSource.create();
  const articles: ArticleDetail[] = [];
  for await (const record of source.read(SAMPLE_FILES.batch2023)) if (record.ok) articles.push(record.article);
  articles.forEach((article, i) => {
    const collected = parseStamp(article.collected_at as string) as number;
    article.published_at = toStamp(collected - (i % 20) * DAY);
  });
  for await (const record of source.read(SAMPLE_FILES.bigquery)) if (record.ok) articles.push(record.article);
  return articles.map(storyFeatures);
}

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function describeStoryStoreContract(name: string, newState: () => Promise<StoryState>): void {
  describe(`StoryStore contract: ${name}`, () => {
    const states: StoryState[] = [];
    const stores: StoryStore[] = [];

    async function state(): Promise<StoryState> {
      const made = await newState();
      states.push(made);
      return made;
    }

    async function open(on: StoryState, maxHeldArticles?: number): Promise<StoryStore> {
      const store = await on.open(maxHeldArticles);
      stores.push(store);
      return store;
    }

    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      for (const made of states.splice(0)) await made.dispose();
    });

    it("records an article as a story of its own, and an article added again keeps its story", async () => {
      const store = await open(await state());
      const a = features("20230702153000-1", T0, ["baltimore", "shooting", "police"]);
      const b = features("20230702153000-2", T0, ["baltimore", "shooting", "suspect"]);
      expect(await store.has(a.id)).toBe(false);
      await store.add(a);
      await store.add(b);
      expect(await store.has(a.id)).toBe(true);
      expect(await store.storyOf(b.id)).toBe(b.id);
      expect(await store.merge(b.id, a.id)).toEqual({ story: a.id, moved: [b.id] });
      await store.add(b);
      expect(await store.storyOf(b.id)).toBe(a.id);
      expect(await store.members(a.id)).toEqual([a.id, b.id]);
      await expect(store.storyOf("20230702153000-9")).rejects.toThrow(/not clustered/);
    });

    for (const held of [undefined, 0]) {
      it(`finds every article within the window sharing enough keys, with its story (${held === 0 ? "counted in the database" : "days held"})`, async () => {
        const store = await open(await state(), held);
        const near = features("20230702150000-1", T0 - HOUR, ["storm", "flood", "river"]);
        const earlier = features("20230629180000-1", T0 - 69 * HOUR, ["storm", "flood"]);
        const oneKey = features("20230702150000-2", T0, ["storm", "market"]);
        const tooLate = features("20230706000000-1", T0 + 4 * DAY, ["storm", "flood", "river"]);
        const joined = features("20230702151500-1", T0 - 30 * 60_000, ["flood", "river", "dam"]);
        for (const f of [near, earlier, oneKey, tooLate, joined]) await store.add(f);
        await store.merge(near.id, joined.id);
        const probe = features("20230702153000-7", T0, ["flood", "river", "storm", "rescue"]);
        const found = await store.candidates(probe, WINDOW, 2);
        expect(found.map((c) => [c.features.id, c.story]).sort()).toEqual(
          [
            [earlier.id, earlier.id],
            [joined.id, near.id],
            [near.id, near.id],
          ].sort(),
        );
        expect(found.find((c) => c.features.id === earlier.id)?.features).toEqual(earlier);
        expect((await store.candidates(probe, WINDOW, 4)).map((c) => c.features.id)).toEqual([]);
        // Fewer lookup keys than asked for: no candidate can qualify.
        expect(await store.candidates(features("20230702153000-8", T0, ["storm"]), WINDOW, 2)).toEqual([]);
      });
    }

    it("joins two stories under the smaller id, moving every member of the other", async () => {
      const store = await open(await state());
      const ids = ["20230702151500-3", "20230702150000-5", "20230702153000-1", "20230702153000-2"];
      for (const id of ids) await store.add(features(id, T0, ["eclipse"]));
      await store.merge("20230702153000-1", "20230702153000-2");
      const joined = await store.merge("20230702151500-3", "20230702153000-1");
      expect(joined.story).toBe("20230702151500-3");
      expect([...joined.moved].sort()).toEqual(["20230702153000-1", "20230702153000-2"]);
      expect(await store.merge("20230702151500-3", "20230702150000-5")).toEqual({
        story: "20230702150000-5",
        moved: ["20230702151500-3", "20230702153000-1", "20230702153000-2"],
      });
      expect(await store.merge("20230702150000-5", "20230702150000-5")).toEqual({ story: "20230702150000-5", moved: [] });
      expect(await store.members("20230702150000-5")).toEqual([...ids].sort());
      for (const id of ids) expect(await store.storyOf(id)).toBe("20230702150000-5");
    });

    it("shares its state with every store opened on it, each seeing what another wrote since", async () => {
      const on = await state();
      const first = await open(on);
      const second = await open(on);
      const a = features("20230702150000-1", T0, ["wildfire", "evacuation", "canyon"]);
      const b = features("20230702151500-1", T0, ["wildfire", "evacuation", "town"]);
      await first.clusterBatch([a], () => first.add(a));
      await nextTurn();
      // The first store now holds a's day; the second adds to it and merges.
      expect((await first.candidates(b, WINDOW, 2)).map((c) => c.features.id)).toEqual([a.id]);
      await second.clusterBatch([b], async () => {
        await second.add(b);
        await second.merge(b.id, a.id);
      });
      await nextTurn();
      const probe = features("20230702153000-1", T0, ["wildfire", "evacuation"]);
      const found = await first.candidates(probe, WINDOW, 2);
      expect(found.map((c) => [c.features.id, c.story]).sort()).toEqual([
        [a.id, a.id],
        [b.id, a.id],
      ]);
      expect(await first.has(b.id)).toBe(true);
      await first.close();
      const reopened = await open(on);
      expect(await reopened.members(a.id)).toEqual([a.id, b.id]);
    });

    it("refuses state clustered by another version, and leaves it as it was", async () => {
      const on = await state();
      const store = await open(on);
      await store.add(features("20230702153000-1", T0, ["eclipse"]));
      await nextTurn();
      await store.close();
      await on.recordVersion("stories-v0");
      await expect(on.open()).rejects.toThrow(OtherClusteringVersionError);
      await expect(on.open()).rejects.toThrow(/stories-v0/);
    });

    describe("clustering real records", () => {
      let sample: StoryFeatures[];

      beforeAll(async () => {
        sample = await sampleFeatures();
      });

      /** Clusters `order` in batches over a new state (one store, or two taking turns), then reads each article's story. */
      async function cluster(
        order: readonly StoryFeatures[],
        options: { batch: number; maxHeldArticles?: number; twoIngests?: boolean; twice?: boolean },
      ): Promise<Map<string, string>> {
        const on = await state();
        const ingests = [await open(on, options.maxHeldArticles)];
        if (options.twoIngests) ingests.push(await open(on, options.maxHeldArticles));
        const clusterers = ingests.map((store) => new StoryClusterer(store));
        let told = new Map<string, string>();
        for (let pass = options.twice ? 2 : 1; pass > 0; pass--) {
          told = new Map(sample.map((f) => [f.id, f.id]));
          for (const [i, batch] of batches(order, options.batch).entries()) {
            const clusterer = clusterers[i % clusterers.length] as StoryClusterer;
            for (const [id, story] of await clusterer.addFeaturesInOrder(batch)) told.set(id, story);
            await nextTurn();
          }
        }
        const reader = await open(on);
        const stories = new Map<string, string>();
        await reader.clusterBatch([], async () => {
          for (const f of sample) stories.set(f.id, await reader.storyOf(f.id));
        });
        // What the index was told about each article is the story recorded.
        expect(told).toEqual(stories);
        return stories;
      }

      let reference: Map<string, string>;

      it("joins copies across days and languages into stories named by their earliest member", async () => {
        reference = await cluster(sample, { batch: 100 });
        const sizes = new Map<string, number>();
        for (const story of reference.values()) sizes.set(story, (sizes.get(story) ?? 0) + 1);
        expect([...sizes.values()].filter((n) => n >= 2).length).toBeGreaterThan(50);
        for (const [id, story] of reference) expect(story <= id).toBe(true);
        // Erdogan's Syria summit in Spanish (ABC Color) and English (Big News Network): no headline word in common.
        expect(reference.get("20200222214500-T272")).toBe(reference.get("20200222221500-852"));
      });

      it("gives the same stories whatever the order and batching, held, evicted or counted in the database", async () => {
        reference ??= await cluster(sample, { batch: 100 });
        expect(await cluster(shuffled(sample, 7), { batch: 500 })).toEqual(reference);
        expect(await cluster([...sample].reverse(), { batch: 250, maxHeldArticles: 400 })).toEqual(reference);
        expect(await cluster(shuffled(sample, 42), { batch: 300, maxHeldArticles: 0 })).toEqual(reference);
      });

      it("gives the same stories when two ingests take turns on one state, and again to a re-ingest", async () => {
        reference ??= await cluster(sample, { batch: 100 });
        // The second pass finds every article clustered and tells the index its story again.
        expect(await cluster(shuffled(sample, 3), { batch: 150, twoIngests: true, twice: true })).toEqual(reference);
        // Each batch finds the other ingest's commit and its days not held: with none held, counted in the database.
        expect(await cluster(shuffled(sample, 5), { batch: 200, twoIngests: true, maxHeldArticles: 0 })).toEqual(reference);
      });
    });
  });
}
