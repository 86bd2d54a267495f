import { randomBytes } from "node:crypto";
import pg from "pg";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { PostgresStoryStore } from "../../src/adapters/postgres/story-store.js";
import { SqliteStoryStore } from "../../src/adapters/sqlite/story-store.js";
import type { StoryStore } from "../../src/ports/story-store.js";
import { StoryClusterer } from "../../src/usecases/stories/story-clusterer.js";
import { CLUSTERING_VERSION } from "../../src/domain/stories/same-story.js";
import { describeStoryStoreContract, sampleFeatures } from "./story-store.contract.js";

// The story clustering state's contract on a real PostgreSQL server (.ci/run
// makes sure one is running), in a schema of its own dropped afterwards.

const URL = process.env.NEWSINDEX_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

async function admin<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: URL });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

describeStoryStoreContract("postgres", async () => {
  const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
  return {
    open: (maxHeldArticles) => PostgresStoryStore.open(URL, schema, maxHeldArticles),
    async recordVersion(version) {
      await admin((db) => db.query(`UPDATE ${schema}.story_meta SET value = $1 WHERE key = 'clustering_version'`, [version]));
    },
    async dispose() {
      await admin((db) => db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    },
  };
});

describe("PostgresStoryStore.setAside", () => {
  it("moves state of any version into a schema of its own, so the next store starts empty; nothing to move is no move", async () => {
    const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
    let aside: string | undefined;
    try {
      expect(await PostgresStoryStore.setAside(URL, schema, "2026-11-28T03:00:00Z")).toBeUndefined();
      const store = await PostgresStoryStore.open(URL, schema);
      await store.add({
        id: "20230702153000-1",
        source: null,
        language: null,
        timeMs: Date.UTC(2023, 6, 2),
        wordCount: 0,
        titleWords: ["eclipse", "totality"],
        entities: [],
        persons: [],
        headlinePersons: [],
        places: [],
        nameWords: [],
      });
      await store.close();
      await admin((db) => db.query(`UPDATE ${schema}.story_meta SET value = 'stories-v0' WHERE key = 'clustering_version'`));
      await expect(PostgresStoryStore.open(URL, schema)).rejects.toThrow(/stories-v0/);

      aside = await PostgresStoryStore.setAside(URL, schema, "2026-11-28T03:00:00Z");
      expect(aside).toBe(`${schema}_stories_20261128030000`);
      const moved = await admin((db) => db.query<{ id: string }>(`SELECT id FROM ${aside}.story_articles`));
      expect(moved.rows).toEqual([{ id: "20230702153000-1" }]);
      const fresh = await PostgresStoryStore.open(URL, schema);
      expect(await fresh.has("20230702153000-1")).toBe(false);
      await fresh.close();
      const version = await admin((db) =>
        db.query<{ value: string }>(`SELECT value FROM ${schema}.story_meta WHERE key = 'clustering_version'`),
      );
      expect(version.rows[0]?.value).toBe(CLUSTERING_VERSION);
    } finally {
      await admin(async (db) => {
        await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        if (aside !== undefined) await db.query(`DROP SCHEMA IF EXISTS ${aside} CASCADE`);
      });
    }
  });
});

describe("PostgreSQL and stories.db", () => {
  it("cluster the same real records, in ingest's batches, into the same stories", async () => {
    const sample = await sampleFeatures();
    const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
    const dir = mkdtempSync(join(tmpdir(), "newsindex-story-state-"));
    const stories = async (store: StoryStore): Promise<Map<string, string>> => {
      const clusterer = new StoryClusterer(store);
      for (let i = 0; i < sample.length; i += 500) {
        await clusterer.addFeaturesInOrder(sample.slice(i, i + 500));
        await nextTurn();
      }
      const found = new Map<string, string>();
      await store.clusterBatch([], async () => {
        for (const f of sample) found.set(f.id, await store.storyOf(f.id));
      });
      await store.close();
      return found;
    };
    try {
      const inPostgres = await stories(await PostgresStoryStore.open(URL, schema));
      const inSqlite = await stories(new SqliteStoryStore(join(dir, "stories.db")));
      expect(new Set(inPostgres.values()).size).toBeLessThan(sample.length - 50);
      expect(inPostgres).toEqual(inSqlite);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await admin((db) => db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    }
  });
});
