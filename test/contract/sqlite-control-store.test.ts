import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteControlStore } from "../../src/adapters/sqlite/control-store.js";
import type { ControlStore } from "../../src/ports/control-store.js";
import { describeControlStoreContract } from "./control-store.contract.js";

describeControlStoreContract("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "newsindex-control-"));
  const path = join(dir, "control.db");
  let store: ControlStore = new SqliteControlStore(path);
  return {
    store,
    async reopen() {
      await store.close();
      store = new SqliteControlStore(path);
      return store;
    },
    openAnother() {
      return new SqliteControlStore(path);
    },
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
