import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStoryStore } from "../../src/adapters/sqlite/story-store.js";
import { describeStoryStoreContract } from "./story-store.contract.js";

// The story clustering state's contract on stories.db in a temporary data dir.

describeStoryStoreContract("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "newsindex-story-state-"));
  const path = join(dir, "stories.db");
  return {
    async open(maxHeldArticles) {
      return new SqliteStoryStore(path, maxHeldArticles);
    },
    async recordVersion(version) {
      const db = new Database(path);
      db.prepare("UPDATE meta SET value = ? WHERE key = 'clustering_version'").run(version);
      db.close();
    },
    async dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
