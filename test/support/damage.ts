import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { TestServer } from "./test-server.js";

/** Closes the server's index handles (as a restart would) and overwrites the month's file header: a damaged index. */
export async function damageMonthlyIndex(server: TestServer, month: string): Promise<void> {
  await server.container.index.close();
  const path = join(server.dataDir, "index", `articles-${month}.db`);
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 0);
  closeSync(fd);
}
