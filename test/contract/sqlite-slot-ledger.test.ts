import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteControlStore } from "../../src/adapters/sqlite/control-store.js";
import { describeSlotLedgerContract } from "./slot-ledger.contract.js";

describeSlotLedgerContract("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "newsindex-ledger-"));
  const path = join(dir, "control.db");
  let control = new SqliteControlStore(path);
  // Each replica opens control.db itself, as two processes on one data dir do.
  const others: SqliteControlStore[] = [];
  return {
    ledger: control.slotLedger(),
    async reopen() {
      await control.close();
      control = new SqliteControlStore(path);
      return control.slotLedger();
    },
    lease() {
      const own = new SqliteControlStore(path);
      others.push(own);
      return own.followerLease(60_000);
    },
    async dispose() {
      await control.close();
      for (const other of others) await other.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
