import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLUSTERING_VERSION } from "../../domain/stories/same-story.js";
import { storyFeatures, type StoryFeatures } from "../../domain/stories/story-features.js";
import { indexKeys, lookupKeys } from "../../domain/stories/story-keys.js";
import { OtherClusteringVersionError } from "../clustering-version.js";
import { GkgArticleSource } from "../gdelt/gkg-source.js";
import { dayOf, DAY_MS } from "../held-articles.js";
import { SqliteStoryStore } from "./story-store.js";

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-story-store-"));
  path = join(dir, "stories.db");
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("stories.db clustering version", () => {
  it("records the version that clusters into it, and opens again under it", async () => {
    await new SqliteStoryStore(path).close();
    const db = new Database(path);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'clustering_version'").pluck().get()).toBe(CLUSTERING_VERSION);
    db.close();
    await new SqliteStoryStore(path).close();
  });

  it("refuses a file clustered by another version and leaves it as it was", async () => {
    await new SqliteStoryStore(path).close();
    const db = new Database(path);
    db.prepare("UPDATE meta SET value = 'stories-v0' WHERE key = 'clustering_version'").run();
    db.close();
    expect(() => new SqliteStoryStore(path)).toThrow(OtherClusteringVersionError);
    expect(() => new SqliteStoryStore(path)).toThrow(/stories-v0.*new data directory/);
    const after = new Database(path);
    expect(after.prepare("SELECT value FROM meta WHERE key = 'clustering_version'").pluck().get()).toBe("stories-v0");
    after.close();
  });

  it("reads a file from before versions were recorded as stories-v1", () => {
    const db = new Database(path);
    db.exec(
      "CREATE TABLE story_articles (id TEXT PRIMARY KEY, story TEXT NOT NULL, time_ms INTEGER NOT NULL, features TEXT NOT NULL)",
    );
    db.prepare("INSERT INTO story_articles VALUES ('20230702153000-1', '20230702153000-1', 0, '{}')").run();
    db.close();
    expect(() => new SqliteStoryStore(path)).toThrow(/stories-v1/);
  });
});

describe("stories.db features", () => {
  /** Features of real articles of the bundled sample: the clustering's own input. */
  async function realFeatures(count: number): Promise<StoryFeatures[]> {
    const source = await GkgArticleSource.create();
    const out: StoryFeatures[] = [];
    for await (const record of source.read(
      fileURLToPath(new URL("../../../data/gkg/20160101020000.gkg.csv.gz", import.meta.url)),
    )) {
      if (record.ok && out.length < count) out.push(storyFeatures(record.article));
    }
    return out;
  }

  it("gives candidates back with the features they were stored with, from memory and from SQL alike", async () => {
    const features = await realFeatures(10);
    const store = new SqliteStoryStore(path);
    for (const f of features) await store.add(f);
    await store.close();
    for (const held of [100_000, 0]) {
      const reopened = new SqliteStoryStore(path, held);
      let matched = 0;
      for (const f of features) {
        // An article is found by the keys it is both indexed and looked up by (its headline's words).
        if (!lookupKeys(f).some((key) => indexKeys(f).includes(key))) continue;
        const found = await reopened.candidates(f, DAY_MS, 1);
        expect(found.find((c) => c.features.id === f.id)?.features).toEqual(JSON.parse(JSON.stringify(f)));
        matched++;
      }
      expect(matched).toBeGreaterThan(5);
      await reopened.close();
    }
    const db = new Database(path);
    const stored = db.prepare("SELECT features FROM story_articles").pluck().all() as Buffer[];
    db.close();
    const json = features.reduce((sum, f) => sum + Buffer.byteLength(JSON.stringify(f)), 0);
    expect(stored.reduce((sum, b) => sum + b.length, 0)).toBeLessThan(json / 2);
  });

  it("reads features a file written before holds as JSON text", async () => {
    const [f] = await realFeatures(1);
    if (f === undefined) throw new Error("no sample article");
    await new SqliteStoryStore(path).close();
    const db = new Database(path);
    db.prepare("INSERT INTO story_articles (id, story, time_ms, features) VALUES (?, ?, ?, ?)").run(
      f.id,
      f.id,
      f.timeMs,
      JSON.stringify(f),
    );
    db.prepare("INSERT INTO story_words (word, day, id) SELECT value, ?, ? FROM json_each(?)").run(
      dayOf(f.timeMs),
      f.id,
      JSON.stringify(indexKeys(f)),
    );
    db.close();
    for (const held of [100_000, 0]) {
      const store = new SqliteStoryStore(path, held);
      const found = await store.candidates(f, DAY_MS, 1);
      expect(found.map((c) => [c.features, c.story])).toEqual([[JSON.parse(JSON.stringify(f)), f.id]]);
      await store.close();
    }
  });
});
