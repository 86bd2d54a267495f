import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteControlStore } from "../../src/adapters/sqlite/control-store.js";
import { describeWatchStoreContract } from "./watch-store.contract.js";

describeWatchStoreContract("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "newsindex-watches-"));
  const path = join(dir, "control.db");
  let control = new SqliteControlStore(path);
  return {
    store: control.watchStore(),
    async reopen() {
      await control.close();
      control = new SqliteControlStore(path);
      return control.watchStore();
    },
    async dispose() {
      await control.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
