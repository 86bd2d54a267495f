import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SqliteIndexBackend } from "../../src/adapters/sqlite/sqlite-index-backend.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { lookupCredits } from "../../src/domain/billing/index-usage.js";
import { readArticles, realRows, tieGroup, words, writeGkgFile } from "../support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import { describeArticleSearchContract } from "./article-search.contract.js";
import { describeArticleStoreContract } from "./article-store.contract.js";
import { describeEntityLexiconContract } from "./entity-lexicon.contract.js";
import type { IndexFactory } from "./index-fixture.js";
import { describeIndexMaintenanceContract } from "./index-maintenance.contract.js";
import { describeStoryIndexContract } from "./story-index.contract.js";
import { describeVectorSearchContract } from "./vector-search.contract.js";

// The embedded index against every index port's contract suite, then what
// only it can show: its monthly files, their layouts, its budget and scores.

/** A SQLite index in a data dir of its own, removed on dispose. */
function sqliteIndex(writerThread = true): IndexFactory<SqliteIndexBackend> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), "newsindex-index-"));
    const index = new SqliteIndexBackend(dir, { writerThread });
    return {
      index,
      async dispose() {
        await index.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  };
}

// Writes run on a worker thread or inline: the ports that write are held to their contract both ways.
for (const writerThread of [true, false]) {
  const mode = writerThread ? "sqlite, writes on a worker thread" : "sqlite, writes inline";
  describeArticleStoreContract(mode, sqliteIndex(writerThread));
  describeStoryIndexContract(mode, sqliteIndex(writerThread));
}
describeArticleSearchContract("sqlite", sqliteIndex());
describeEntityLexiconContract("sqlite", sqliteIndex());
describeVectorSearchContract("sqlite", sqliteIndex());
describeIndexMaintenanceContract("sqlite", sqliteIndex());

describe("sqlite index: reads across monthly indexes", () => {
  let dir: string;
  let backend: SqliteIndexBackend;
  let articles: ArticleDetail[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "newsindex-index-"));
    backend = new SqliteIndexBackend(dir);
    articles = await readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery]);
    await backend.write(articles);
  });
  afterAll(async () => {
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads the newest monthly index whatever the budget, and leaves the others unread once it is spent", async () => {
    const result = await backend.search({ filters: {}, offset: 0, limit: 10, budgetMs: 0 });
    expect(result.partitionsRead.length).toBeGreaterThanOrEqual(1);
    expect(result.partitionsFailed.length).toBeGreaterThan(0);
    for (const failure of result.partitionsFailed) expect(failure.kind).toBe("timed_out");
    expect(result.total).toBeLessThan(articles.length);
  });

  it("checks each spelling against a window that cuts into a monthly index: a second query, 2 credits", async () => {
    const whole = await backend.entitySpellings({ type: "person", key: "jill biden", lookup: "id", counts: true, limit: 100 });
    expect(whole.usage.indexQueries).toBe(1);
    expect(lookupCredits(whole.usage)).toBe(1);
    const cut = await backend.entitySpellings({
      type: "person",
      key: "joe biden",
      lookup: "id",
      from: "20230702140000",
      counts: true,
      limit: 100,
    });
    expect(cut.usage.indexQueries).toBe(2);
    expect(lookupCredits(cut.usage)).toBe(2);
  });

  it("sums a bucket's distinct counts over the monthly indexes holding it, and marks them approximate", async () => {
    const all = await backend.aggregate({ filters: {}, interval: "all", metrics: { stories: true, outlets: true } });
    expect(all.rows).toHaveLength(1);
    expect(all.rows[0]?.approximate).toBe(true);
    const oneMonth = await backend.aggregate({
      filters: { from: "20230702000000", to: "20230702235959" },
      interval: "all",
      metrics: { stories: true, outlets: true },
    });
    expect(oneMonth.rows[0]?.approximate).toBe(false);
  });
});

describe("sqlite index: a monthly index built with an earlier layout", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  // Schema 1: before the doc values; schema 2: before story sizes were kept at write time.
  for (const version of ["1", "2"]) {
    it(`is reported unreadable by queries, and set aside (not deleted) when its month is written again (schema ${version})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "newsindex-index-"));
      dirs.push(dir);
      mkdirSync(join(dir, "index"));
      const old = join(dir, "index", "articles-201601.db");
      const db = new Database(old);
      db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      db.prepare("INSERT INTO meta VALUES ('schema_version', ?)").run(version);
      db.close();

      const backend = new SqliteIndexBackend(dir);
      try {
        const before = await backend.search({ filters: {}, offset: 0, limit: 1 });
        expect(before.partitionsFailed).toEqual([
          expect.objectContaining({
            partition: "201601",
            kind: "unreadable",
            reason: expect.stringContaining(`schema ${version}`),
          }),
        ]);
        const articles = await readArticles([SAMPLE_FILES.batch2016]);
        for (const a of articles) a.story_id = (articles[0] as ArticleDetail).id;
        expect((await backend.write(articles)).inserted).toBe(articles.length);
        expect(existsSync(`${old}.schema${version}`)).toBe(true);
        const after = await backend.search({ filters: {}, offset: 0, limit: 1 });
        expect(after.partitionsFailed).toEqual([]);
        expect(after.total).toBe(articles.length);
        // The rebuilt month keeps its stories' sizes.
        const story = (articles[0] as ArticleDetail).id;
        const sizes = await backend.storySizes([story], undefined);
        expect(sizes.partitionsFailed).toEqual([]);
        expect(sizes.sizes.get(story)).toEqual({
          count: articles.length,
          outlets: new Set(articles.flatMap((a) => (a.source ? [a.source] : []))).size,
        });
      } finally {
        await backend.close();
      }
    });
  }
});

describe("sqlite index: stories (ports/story-index.ts)", () => {
  for (const writerThread of [true, false]) {
    it(`lists a story's members and moves articles between stories everywhere (${writerThread ? "writer thread" : "inline"})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "newsindex-index-"));
      const backend = new SqliteIndexBackend(dir, { writerThread });
      try {
        const articles = await readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016]);
        await backend.write(articles);
        // A story's id is its earliest member's: lead with a 2016 article, join later ones.
        const lead = articles[articles.length - 2] as ArticleDetail;
        const alone = (await backend.storyOverview(lead.id, {}, { limit: 10, sources: 20 })).story;
        expect(alone?.count).toBe(1);
        expect(alone?.listed.map((a) => a.id)).toEqual([lead.id]);

        const joining = [articles[5], articles[6], articles[articles.length - 1]].map((a) => (a as ArticleDetail).id);
        await backend.relabel([{ story_id: lead.id, article_ids: joining }]);
        const story = (await backend.storyOverview(lead.id, {}, { limit: 2, sources: 20 })).story;
        expect(story?.count).toBe(4);
        expect(story?.first_reported.id).toBe(lead.id);
        expect(story?.listed).toHaveLength(2);
        for (const doc of story?.listed ?? []) expect(doc.story_id).toBe(lead.id);
        const byFilter = await backend.search({ filters: { story_id: lead.id }, offset: 0, limit: 10 });
        expect(byFilter.total).toBe(4);
        const facet = await backend.search({ filters: {}, offset: 0, limit: 1, facets: { fields: ["story_id"], limit: 1 } });
        expect(facet.facets?.story_id?.values[0]).toEqual({ value: lead.id, count: 4 });
        const moved = await backend.getArticle(joining[0] as string);
        expect(moved.status === "found" && moved.article.story_id).toBe(lead.id);
        // The old story id of a moved article now leads to the story it joined.
        const resolved = (await backend.storyOverview(joining[0] as string, {}, { limit: 10, sources: 20 })).story;
        expect(resolved?.story_id).toBe(lead.id);
        expect(resolved?.count).toBe(4);
        expect((await backend.search({ filters: { story_id: joining[0] as string }, offset: 0, limit: 1 })).total).toBe(0);
      } finally {
        await backend.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe("sqlite index: scores comparable across monthly indexes", () => {
  it("gives an article the same score in a small month as its copy in a large one, and alone or with other months", async () => {
    const dir = mkdtempSync(join(tmpdir(), "newsindex-index-"));
    const backend = new SqliteIndexBackend(dir);
    try {
      // The real 2023-07-02 batch (a large month) and one of its articles copied, alone, into a month of its own.
      const rows = realRows();
      const original = (rows.find((r) => /baltimore/i.test(r[26] ?? "")) ?? rows[0]) as string[];
      const copyFile = writeGkgFile(dir, "copy.gkg.csv", tieGroup([original], 1, "20160101020000", "COPY"));
      const articles = await readArticles([SAMPLE_FILES.batch2023, copyFile]);
      await backend.write(articles);
      const copy = articles.find((a) => a.id.startsWith("20160101020000-COPY")) as ArticleDetail;
      const source = articles.find((a) => a.id === original[0]) as ArticleDetail;
      const keywords = words((copy.title as string).split(/\s+/).slice(0, 2).join(" "));

      const both = await backend.search({ filters: {}, keywords, offset: 0, limit: 100 });
      const scoreOf = (result: { hits: Array<{ article: ArticleDetail; score?: number }> }, id: string) =>
        result.hits.find((h) => h.article.id === id)?.score;
      expect(scoreOf(both, copy.id)).toBeDefined();
      // FTS5's own bm25() scores the copy in its one-article month far from the same article in the large one.
      expect(scoreOf(both, copy.id)).toBe(scoreOf(both, source.id));

      const alone = await backend.search({
        filters: { from: "20160101000000", to: "20160131235959" },
        keywords,
        offset: 0,
        limit: 100,
      });
      expect(alone.hits.map((h) => h.article.id)).toEqual([copy.id]);
      expect(alone.hits[0]?.score).toBe(scoreOf(both, copy.id));

      // And ranks the same: the large month's matches keep their order and scores with or without the small one.
      const large = await backend.search({ filters: { from: "20160102000000" }, keywords, offset: 0, limit: 100 });
      expect(large.hits.map((h) => [h.article.id, h.score])).toEqual(
        both.hits.filter((h) => h.article.id !== copy.id).map((h) => [h.article.id, h.score]),
      );
    } finally {
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sqlite index: er-v1 entity keys added to monthly indexes written before them", () => {
  it("answers by keying terms on the fly until the index is written again, which fills its keys once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "newsindex-index-"));
    try {
      const articles = await readArticles([SAMPLE_FILES.batch2023]);
      const first = new SqliteIndexBackend(dir, { writerThread: false });
      await first.write(articles.slice(0, 600));
      await first.close();
      // As an index built before the keys existed: no table, no marker.
      const path = join(dir, "index", "articles-202307.db");
      const db = new Database(path);
      db.exec("DROP TABLE entity_keys; DELETE FROM meta WHERE key = 'entity_keys'");
      db.close();

      const backend = new SqliteIndexBackend(dir, { writerThread: false });
      const query = { type: "person" as const, key: "jill biden", lookup: "id" as const, counts: true, limit: 10 };
      const before = await backend.entitySpellings(query);
      expect(before.spellings.map((s) => s.key).sort()).toEqual(["jill biden", "lady jill biden"]);
      const filtered = await backend.search({
        filters: { entities: [{ type: "person", key: "jill biden" }] },
        offset: 0,
        limit: 0,
      });

      await backend.write(articles.slice(600));
      const marker = new Database(path, { readonly: true });
      expect(marker.prepare("SELECT value FROM meta WHERE key = 'entity_keys'").pluck().get()).toBe("er-v1");
      marker.close();
      const after = await backend.entitySpellings(query);
      expect(after.spellings.map((s) => [s.key, s.articles]).sort()).toEqual([
        ["jill biden", 2],
        ["lady jill biden", 6],
      ]);
      const all = await backend.search({ filters: { entities: [{ type: "person", key: "jill biden" }] }, offset: 0, limit: 0 });
      expect(all.total).toBe(8);
      expect(filtered.total).toBeLessThanOrEqual(8);
      await backend.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
