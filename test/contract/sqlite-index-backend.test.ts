import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteIndexBackend } from "../../src/adapters/sqlite/sqlite-index-backend.js";
import { describeIndexBackendContract } from "./index-backend.contract.js";

describeIndexBackendContract("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "newsindex-index-"));
  const backend = new SqliteIndexBackend(dir);
  return {
    backend,
    async dispose() {
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
