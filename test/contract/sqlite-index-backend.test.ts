import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteIndexBackend } from "../../src/adapters/sqlite/sqlite-index-backend.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { readArticles } from "../support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import { describeIndexBackendContract } from "./index-backend.contract.js";
import { describeStoryIndexContract } from "./story-index.contract.js";

for (const writerThread of [true, false]) {
  describeIndexBackendContract(writerThread ? "sqlite, writes on a worker thread" : "sqlite, writes inline", async () => {
    const dir = mkdtempSync(join(tmpdir(), "newsindex-index-"));
    const backend = new SqliteIndexBackend(dir, { writerThread });
    return {
      backend,
      async dispose() {
        await backend.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
}

describe("sqlite index: a monthly index built with an earlier layout", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("is reported unreadable by queries, and set aside (not deleted) when its month is written again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "newsindex-index-"));
    dirs.push(dir);
    mkdirSync(join(dir, "index"));
    const old = join(dir, "index", "articles-201601.db");
    const db = new Database(old);
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '1');");
    db.close();

    const backend = new SqliteIndexBackend(dir);
    try {
      const before = await backend.search({ filters: {}, offset: 0, limit: 1 });
      expect(before.partitionsFailed).toEqual([
        expect.objectContaining({ partition: "201601", kind: "unreadable", reason: expect.stringContaining("schema 1") }),
      ]);
      const articles = await readArticles([SAMPLE_FILES.batch2016]);
      expect((await backend.write(articles)).inserted).toBe(articles.length);
      expect(existsSync(`${old}.schema1`)).toBe(true);
      const after = await backend.search({ filters: {}, offset: 0, limit: 1 });
      expect(after.partitionsFailed).toEqual([]);
      expect(after.total).toBe(articles.length);
    } finally {
      await backend.close();
    }
  });
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
        const alone = await backend.storyMembers(lead.id, {}, 10);
        expect(alone.members.map((m) => m.id)).toEqual([lead.id]);
        expect(alone.listed[0]?.id).toBe(lead.id);

        const joining = [articles[5], articles[6], articles[articles.length - 1]].map((a) => (a as ArticleDetail).id);
        await backend.relabel([{ story_id: lead.id, article_ids: joining }]);
        const story = await backend.storyMembers(lead.id, {}, 2);
        expect(story.members.map((m) => m.id).sort()).toEqual([lead.id, ...joining].sort());
        expect(story.listed).toHaveLength(2);
        for (const doc of story.listed) expect(doc.story_id).toBe(lead.id);
        const byFilter = await backend.search({ filters: { story_id: lead.id }, offset: 0, limit: 10 });
        expect(byFilter.total).toBe(4);
        const facet = await backend.search({ filters: {}, offset: 0, limit: 1, facets: { fields: ["story_id"], limit: 1 } });
        expect(facet.facets?.story_id?.values[0]).toEqual({ value: lead.id, count: 4 });
        const moved = await backend.getArticle(joining[0] as string);
        expect(moved.status === "found" && moved.article.story_id).toBe(lead.id);
        // The old story id of a moved article now leads to the story it joined.
        expect((await backend.storyMembers(joining[0] as string, {}, 10)).members).toHaveLength(4);
        expect((await backend.search({ filters: { story_id: joining[0] as string }, offset: 0, limit: 1 })).total).toBe(0);
      } finally {
        await backend.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

for (const writerThread of [true, false]) {
  describeStoryIndexContract(writerThread ? "sqlite, writes on a worker thread" : "sqlite, writes inline", async () => {
    const dir = mkdtempSync(join(tmpdir(), "newsindex-story-index-"));
    const index = new SqliteIndexBackend(dir, { writerThread });
    return {
      index,
      async dispose() {
        await index.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
}
