import { randomBytes } from "node:crypto";
import pg from "pg";
import { PostgresControlStore } from "../../src/adapters/postgres/control-store.js";
import type { ControlStore } from "../../src/ports/control-store.js";
import { describeControlStoreContract } from "./control-store.contract.js";

// The same contract on a real PostgreSQL server (.ci/run makes sure one is
// running), in a schema of its own that is dropped afterwards.

const URL = process.env.NEWSINDEX_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

describeControlStoreContract("postgres", async () => {
  const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
  let store: ControlStore = new PostgresControlStore(URL, schema);
  return {
    store,
    async reopen() {
      await store.close();
      store = new PostgresControlStore(URL, schema);
      return store;
    },
    openAnother() {
      return new PostgresControlStore(URL, schema);
    },
    async dispose() {
      await store.close();
      const admin = new pg.Client({ connectionString: URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
});
