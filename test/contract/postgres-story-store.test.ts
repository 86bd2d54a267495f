import { randomBytes } from "node:crypto";
import pg from "pg";
import { PostgresStoryStore } from "../../src/adapters/postgres/story-store.js";
import { describeStoryStoreContract } from "./story-store.contract.js";

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
