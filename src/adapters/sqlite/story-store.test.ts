import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLUSTERING_VERSION } from "../../domain/stories/same-story.js";
import { OtherClusteringVersionError } from "../clustering-version.js";
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
