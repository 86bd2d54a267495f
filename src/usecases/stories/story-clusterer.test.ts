import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GkgArticleSource } from "../../adapters/gdelt/gkg-source.js";
import { SqliteClusteringThread } from "../../adapters/sqlite/cluster-thread.js";
import { SqliteStoryStore } from "../../adapters/sqlite/story-store.js";
import type { ArticleDetail } from "../../domain/article.js";
import { parseStamp, toStamp } from "../../shared/timestamps.js";
import { StoryClusterer } from "./story-clusterer.js";
import { shuffled } from "../../../test/support/shuffled.js";

// The stories must not depend on how clustering ran: the order articles came
// in, whether the store held their days in memory, evicted them or counted in
// SQL, whether batches ran on the clustering thread, or whether two ingests
// took turns on one stories.db. The real 2023-07-02 15:30 batch is spread back
// over 20 days (article i published i % 20 days before its collection), so
// stories chain across days and lookups load, evict and reload held days. The
// 2020-02-22 sample, a third of it translated, adds stories found through
// persons in two languages.

const SAMPLE = new URL("../../../data/gkg/20230702153000.gkg.csv.gz", import.meta.url).pathname;
const TRANSLATED_SAMPLE = new URL("../../../data/gkg/bq-extract-20200222_sample.csv.gz", import.meta.url).pathname;
const DAY_MS = 86_400_000;
const BATCH = 100;

let articles: ArticleDetail[];
let dir: string;

beforeAll(async () => {
  const source = await GkgArticleSource.create();
  articles = [];
  for await (const record of source.read(SAMPLE)) if (record.ok) articles.push(record.article);
  articles.forEach((article, i) => {
    const collected = parseStamp(article.collected_at as string) as number;
    article.published_at = toStamp(collected - (i % 20) * DAY_MS);
  });
  for await (const record of source.read(TRANSLATED_SAMPLE)) if (record.ok) articles.push(record.article);
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-clusterer-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Each article's story, as recorded in the file. */
async function storiesIn(path: string): Promise<Map<string, string>> {
  const store = new SqliteStoryStore(path);
  const stories = new Map<string, string>();
  for (const article of articles) stories.set(article.id, await store.storyOf(article.id));
  await store.close();
  return stories;
}

async function clusterOneByOne(order: readonly ArticleDetail[], maxHeldArticles?: number): Promise<Map<string, string>> {
  const path = join(dir, `stories-${Math.random()}.db`);
  const store = new SqliteStoryStore(path, maxHeldArticles);
  const clusterer = new StoryClusterer(store);
  for (const article of order) await clusterer.add(article);
  await store.close();
  return storiesIn(path);
}

function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

describe("story clustering", () => {
  let reference: Map<string, string>;

  beforeEach(async () => {
    reference ??= await clusterOneByOne(articles);
  });

  it("joins copies across days into stories named by their earliest member", () => {
    const sizes = new Map<string, number>();
    for (const story of reference.values()) sizes.set(story, (sizes.get(story) ?? 0) + 1);
    expect([...sizes.values()].filter((n) => n >= 2).length).toBeGreaterThan(50);
    const published = new Map(articles.map((a) => [a.id, parseStamp(a.published_at as string) as number]));
    const spans = new Map<string, number[]>();
    for (const [id, story] of reference) spans.set(story, [...(spans.get(story) ?? []), published.get(id) as number]);
    expect([...spans.values()].some((times) => Math.max(...times) - Math.min(...times) > 3 * DAY_MS)).toBe(true);
    for (const [id, story] of reference) expect(story <= id).toBe(true);
    // Erdogan's Syria summit in Spanish (ABC Color) and English (Big News Network): no headline word in common.
    expect(reference.get("20200222214500-T272")).toBe(reference.get("20200222221500-852"));
  });

  it("gives the same stories whatever the order, and whether days are held, evicted or counted in SQL", async () => {
    expect(await clusterOneByOne(shuffled(articles, 7))).toEqual(reference);
    expect(await clusterOneByOne(shuffled(articles, 42), 0)).toEqual(reference);
    expect(await clusterOneByOne([...articles].reverse(), 400)).toEqual(reference);
  });

  it("clusters batches on its own thread to the same stories, and reports every article whose story changed", async () => {
    const path = join(dir, "stories.db");
    const clusterer = new StoryClusterer(new SqliteStoryStore(path), () => new SqliteClusteringThread(path));
    // What the index is told: each batch's articles and the earlier ones a merge moved.
    const told = new Map(articles.map((a) => [a.id, a.id]));
    for (const batch of batches(shuffled(articles, 3)))
      for (const [id, story] of await clusterer.addBatch(batch, true)) told.set(id, story);
    await clusterer.release();
    expect(await storiesIn(path)).toEqual(reference);
    expect(told).toEqual(reference);
  });

  it("gives the same stories when two ingests take turns on one stories.db", async () => {
    const path = join(dir, "stories.db");
    const stores = [new SqliteStoryStore(path), new SqliteStoryStore(path)];
    const clusterers = stores.map((store) => new StoryClusterer(store));
    for (const [i, batch] of batches(articles).entries()) {
      for (const article of batch) await clusterers[i % 2]?.add(article);
      // The batch commits once its ingest yields.
      await nextTurn();
    }
    for (const store of stores) await store.close();
    expect(await storiesIn(path)).toEqual(reference);
  });

  it("gives an article clustered before its story again, as a re-ingest after a lost index write needs", async () => {
    const path = join(dir, "stories.db");
    const first = new SqliteStoryStore(path);
    for (const article of articles) await new StoryClusterer(first).add(article);
    await first.close();
    const joined = articles.find((a) => reference.get(a.id) !== a.id) as ArticleDetail;
    const alone = articles.find((a) => [...reference.values()].filter((s) => s === a.id).length === 1) as ArticleDetail;
    const again = new SqliteStoryStore(path);
    const clusterer = new StoryClusterer(again);
    expect(await clusterer.add(joined)).toEqual({ story_id: reference.get(joined.id), article_ids: [joined.id] });
    expect(await clusterer.add(alone)).toBeUndefined();
    await again.close();
  });
});
