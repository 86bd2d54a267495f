import { randomBytes } from "node:crypto";
import pg from "pg";
import { PostgresControlStore } from "../../src/adapters/postgres/control-store.js";
import { describeWatchStoreContract } from "./watch-store.contract.js";

// The same contract on a real PostgreSQL server, in a schema of its own that is dropped afterwards.

const URL = process.env.NEWSINDEX_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

describeWatchStoreContract("postgres", async () => {
  const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
  let control = new PostgresControlStore(URL, schema);
  return {
    store: control.watchStore(),
    async reopen() {
      await control.close();
      control = new PostgresControlStore(URL, schema);
      return control.watchStore();
    },
    async dispose() {
      await control.close();
      const admin = new pg.Client({ connectionString: URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
});
