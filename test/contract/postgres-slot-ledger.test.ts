import { randomBytes } from "node:crypto";
import pg from "pg";
import { PostgresControlStore } from "../../src/adapters/postgres/control-store.js";
import { describeSlotLedgerContract } from "./slot-ledger.contract.js";

// The same contract on a real PostgreSQL server, in a schema of its own that is dropped afterwards.

const URL = process.env.NEWSINDEX_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

describeSlotLedgerContract("postgres", async () => {
  const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
  let control = new PostgresControlStore(URL, schema);
  const others: PostgresControlStore[] = [];
  return {
    ledger: control.slotLedger(),
    async reopen() {
      await control.close();
      control = new PostgresControlStore(URL, schema);
      return control.slotLedger();
    },
    lease() {
      const own = new PostgresControlStore(URL, schema);
      others.push(own);
      return own.followerLease();
    },
    async dispose() {
      await control.close();
      for (const other of others) await other.close();
      const admin = new pg.Client({ connectionString: URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
});
