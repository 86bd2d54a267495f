import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { CATALOG_TTL_MS } from "../../src/adapters/opensearch/article-indices.js";
import { openSearchClient } from "../../src/adapters/opensearch/client.js";
import { IndexNames } from "../../src/adapters/opensearch/index-names.js";
import type { TestServer } from "./test-server.js";

/**
 * Makes the month's index unreadable, as the server's engine meets it: the embedded shape's file header overwritten
 * (its handles closed first, as a restart would), the scaled shape's monthly OpenSearch index closed (and the
 * server's month catalog given time to see it).
 */
export async function damageMonthlyIndex(server: TestServer, month: string): Promise<void> {
  const { config } = server;
  if (config.index === "opensearch" && config.opensearchUrls !== undefined) {
    const client = openSearchClient({ urls: config.opensearchUrls });
    try {
      await client.indices.close({ index: new IndexNames(config.opensearchPrefix).articleIndex(month) });
    } finally {
      await client.close();
    }
    await new Promise((resolve) => setTimeout(resolve, CATALOG_TTL_MS + 100));
    return;
  }
  await server.container.index.close();
  const path = join(server.dataDir, "index", `articles-${month}.db`);
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 0);
  closeSync(fd);
}
