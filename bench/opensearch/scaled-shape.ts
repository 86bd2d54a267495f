import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "undici";
import type { PassFigures } from "../scale/ingest-pass.js";
import { ingestPass } from "../scale/run-ingest.js";

// The scaled shape on the bench's own node: the corpus ingested through the
// product's pipeline (parse, derive, cluster; no embedding) with
// NEWSINDEX_INDEX=opensearch into monthly indices under `prefix`, then each
// monthly index merged to one segment before anything is timed (the raw
// column reads the same indices, so both see the same segments).

export interface ScaledLoad {
  /** Undefined when an index of the same corpus was kept (--reuse). */
  ingest?: PassFigures;
  articles: number;
  storeBytes: number;
  mergeSeconds: number;
}

export function scaledEnv(origin: string, prefix: string): Record<string, string> {
  return { NEWSINDEX_INDEX: "opensearch", NEWSINDEX_OPENSEARCH_URL: origin, NEWSINDEX_OPENSEARCH_PREFIX: prefix };
}

async function call<T>(node: Client, method: "GET" | "POST" | "DELETE", path: string): Promise<T> {
  const response = await node.request({ method, path });
  const text = await response.body.text();
  if (response.statusCode >= 300 && response.statusCode !== 404)
    throw new Error(`OpenSearch ${method} ${path}: ${response.statusCode} ${text.slice(0, 300)}`);
  return (response.statusCode === 404 ? {} : JSON.parse(text)) as T;
}

export async function loadScaled(o: {
  origin: string;
  prefix: string;
  corpusDir: string;
  corpusKey: string;
  dataDir: string;
  reuse: boolean;
}): Promise<ScaledLoad> {
  const node = new Client(o.origin);
  const pattern = `${o.prefix}-articles-*`;
  const marker = join(o.dataDir, "BENCH-CORPUS.json");
  try {
    const count = async (): Promise<number> =>
      (await call<{ count?: number }>(node, "GET", `/${pattern}/_count?allow_no_indices=true`)).count ?? 0;
    let ingest: PassFigures | undefined;
    const kept =
      o.reuse && existsSync(marker) ? (JSON.parse(readFileSync(marker, "utf8")) as { key: string; articles: number }) : undefined;
    if (!(kept?.key === o.corpusKey && kept.articles === (await count()))) {
      await call(node, "DELETE", `/${pattern}?allow_no_indices=true`);
      await call(node, "DELETE", `/_index_template/${o.prefix}-articles`);
      ingest = await ingestPass("clustered", o.corpusDir, o.dataDir, scaledEnv(o.origin, o.prefix));
    }
    const started = performance.now();
    await call(node, "POST", `/${pattern}/_forcemerge?max_num_segments=1`);
    await call(node, "POST", `/${pattern}/_refresh`);
    const mergeSeconds = (performance.now() - started) / 1000;
    const articles = await count();
    writeFileSync(marker, JSON.stringify({ key: o.corpusKey, articles }));
    const stats = await call<{ _all: { primaries: { store: { size_in_bytes: number } } } }>(
      node,
      "GET",
      `/${pattern}/_stats/store`,
    );
    return { ...(ingest ? { ingest } : {}), articles, storeBytes: stats._all.primaries.store.size_in_bytes, mergeSeconds };
  } finally {
    await node.close();
  }
}
