import { randomBytes } from "node:crypto";
import type { Client } from "@opensearch-project/opensearch";
import { CATALOG_TTL_MS } from "../../src/adapters/opensearch/article-indices.js";
import { openSearchClient } from "../../src/adapters/opensearch/client.js";
import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { readArticles } from "./gkg-fixtures.js";
import { SAMPLE_FILES } from "./test-server.js";

// The scaled shape's tests run on a real OpenSearch node: .ci/run starts one
// (.ci/opensearch.sh) on 127.0.0.1:19200, where `bash .ci/opensearch.sh` also
// starts it locally; NEWSINDEX_TEST_OPENSEARCH_URL points elsewhere. Each test
// gets a name prefix of its own, so tests share the node without seeing each
// other's indices, and everything under it is deleted afterwards.

export const OPENSEARCH_URL = process.env.NEWSINDEX_TEST_OPENSEARCH_URL ?? "http://127.0.0.1:19200";

export interface TestOpenSearch {
  client: Client;
  urls: string[];
  /** Names of this test's indices, aliases and templates start with it. */
  prefix: string;
  /** Deletes every index and template under the prefix, and closes the client. */
  dispose(): Promise<void>;
}

export async function testOpenSearch(): Promise<TestOpenSearch> {
  const urls = OPENSEARCH_URL.split(",").map((u) => u.trim());
  const client = openSearchClient({ urls });
  const prefix = `test-${randomBytes(6).toString("hex")}`;
  try {
    await client.cluster.health({ wait_for_status: "yellow", timeout: "30s" });
  } catch (error) {
    await client.close();
    throw new Error(
      `No OpenSearch node answers at ${OPENSEARCH_URL} (start one with \`bash .ci/opensearch.sh\`, or set NEWSINDEX_TEST_OPENSEARCH_URL): ${String(error)}`,
    );
  }
  return {
    client,
    urls,
    prefix,
    async dispose() {
      try {
        await dropPrefix(client, prefix);
      } finally {
        await client.close();
      }
    },
  };
}

/** Reopens a closed index and waits until a server's month catalog has seen it (article-indices.ts CATALOG_TTL_MS). */
export async function reopen(client: Client, index: string): Promise<void> {
  await client.indices.open({ index, wait_for_active_shards: "1" });
  await new Promise((resolve) => setTimeout(resolve, CATALOG_TTL_MS + 100));
}

/** Deletes the indices and index templates named `<prefix>-*`, by name (a node may refuse wildcard deletes). */
export async function dropPrefix(client: Client, prefix: string): Promise<void> {
  const indices = await client.indices.get({ index: `${prefix}-*`, expand_wildcards: "all", ignore_unavailable: true });
  const names = Object.keys(indices.body);
  if (names.length > 0) await client.indices.delete({ index: names.join(",") });
  const templates = await client.indices.getIndexTemplate({ name: `${prefix}-*` }, { ignore: [404] });
  for (const template of templates.body.index_templates ?? []) {
    await client.indices.deleteIndexTemplate({ name: template.name });
  }
}

/** An OpenSearch index of its own holding the real articles of `files` (the three bundled GKG batches by default). */
export async function sampleOpenSearchIndex(
  files: readonly string[] = [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery],
): Promise<{ node: TestOpenSearch; index: OpenSearchIndex; articles: ArticleDetail[] }> {
  const node = await testOpenSearch();
  const index = new OpenSearchIndex(node.client, { prefix: node.prefix });
  const articles = await readArticles(files);
  await index.write(articles);
  return { node, index, articles };
}
