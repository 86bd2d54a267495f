import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, runCli, spawnCli, waitUntil, type CliProcess } from "./support/cli-process.js";
import { testOpenSearch, type TestOpenSearch } from "./support/opensearch.js";
import { SAMPLE_FILES } from "./support/test-server.js";
import { DATABASE_URL, dropSchemas } from "./support/test-shape.js";

// The scaled shape as an operator runs it: `newsindex ingest` with
// NEWSINDEX_INDEX=opensearch and the PostgreSQL control store writes articles
// into a real OpenSearch node and the story clustering state into PostgreSQL;
// then two `newsindex serve` processes, each on an empty data dir of its own,
// answer from them alike. No data dir is left holding a database.

const SUMMARY = /^ingested (\d+) records \((\d+) new, (\d+) unchanged\)/m;

let node: TestOpenSearch;
let dir: string;
let env: Record<string, string>;
const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
const replicas: CliProcess[] = [];

beforeAll(async () => {
  node = await testOpenSearch();
  dir = mkdtempSync(join(tmpdir(), "newsindex-scaled-"));
  env = {
    NEWSINDEX_INDEX: "opensearch",
    NEWSINDEX_OPENSEARCH_URL: node.urls.join(","),
    NEWSINDEX_OPENSEARCH_PREFIX: node.prefix,
    NEWSINDEX_CONTROL_STORE: "postgres",
    NEWSINDEX_DATABASE_URL: DATABASE_URL,
    NEWSINDEX_DATABASE_SCHEMA: schema,
  };
});

afterAll(async () => {
  for (const replica of replicas) {
    if (replica.child.exitCode === null) replica.child.kill("SIGTERM");
    await replica.exited;
  }
  await node?.dispose();
  await dropSchemas([schema]);
  rmSync(dir, { recursive: true, force: true });
});

/** Every file under `path` whose name ends in .db (or a SQLite journal of one). */
function databasesUnder(path: string): string[] {
  return readdirSync(path, { recursive: true, encoding: "utf8" }).filter((name) => /\.db(-wal|-shm|-journal)?$/.test(name));
}

/** `newsindex serve` as a process on an empty data dir of its own; resolves once it answers. */
async function serveReplica(name: string, key: string): Promise<{ url: string; dataDir: string }> {
  const dataDir = join(dir, name);
  const port = await freePort();
  const replica = spawnCli(["serve", "--data-dir", dataDir, "--port", String(port)], env);
  replicas.push(replica);
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    async () => {
      try {
        return (await fetch(`${url}/search?limit=1`, { headers: { "x-api-key": key } })).ok;
      } catch {
        // Not listening yet.
        return false;
      }
    },
    {
      timeoutMs: 180_000,
      everyMs: 200,
      alive: () => replica.child.exitCode === null,
      describe: () => `serve did not answer:\n${replica.stdout()}\n${replica.stderr()}`,
    },
  );
  return { url, dataDir };
}

async function get<T>(url: string, key: string): Promise<T> {
  const response = await fetch(url, { headers: { "x-api-key": key } });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

describe("NEWSINDEX_INDEX=opensearch with the PostgreSQL control store, as processes", () => {
  it("ingests, then serves from replicas keeping nothing: search, stories, a story, an MCP tool, alike on both", async () => {
    const ingestDir = join(dir, "ingest");
    // Batches of 200: those after the first are clustered on the clustering thread.
    const ingested = await runCli(["ingest", "--data-dir", ingestDir, SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016], {
      ...env,
      NEWSINDEX_INGEST_BATCH: "200",
    });
    expect(ingested.status, ingested.stderr).toBe(0);
    expect(SUMMARY.exec(ingested.stdout)?.slice(1, 3)).toEqual(["961", "961"]);
    // The clustering state is in PostgreSQL, every article of it.
    const state = new pg.Client({ connectionString: DATABASE_URL });
    await state.connect();
    const clustered = await state.query<{ id: string; story: string }>(`SELECT id, story FROM ${schema}.story_articles`);
    await state.end();
    expect(clustered.rows).toHaveLength(961);
    const storyOf = new Map(clustered.rows.map((row) => [row.id, row.story]));

    const issued = await runCli(
      ["keys", "create", "--data-dir", ingestDir, "--tenant", "scaled", "--plan", "archive", "--json"],
      env,
    );
    expect(issued.status, issued.stderr).toBe(0);
    const { key } = JSON.parse(issued.stdout) as { key: string };

    const a = await serveReplica("replica-a", key);
    const b = await serveReplica("replica-b", key);

    const search = await get<{ results: Array<{ id: string; title: string }>; total: number; coverage: string }>(
      `${a.url}/search?q=baltimore+shooting&limit=5`,
      key,
    );
    expect(search.coverage).toBe("complete");
    expect(search.results.length).toBe(5);
    for (const hit of search.results) expect(hit.title.toLowerCase()).toMatch(/baltimore|shooting/);

    type Stories = { stories: Array<{ story_id: string; count: number; title: string }> };
    const listing = "/stories?q=baltimore+shooting&limit=5";
    const stories = await get<Stories>(`${a.url}${listing}`, key);
    const top = stories.stories[0];
    expect(top?.count).toBeGreaterThan(1);
    // The second replica, on another empty data dir, answers the same stories.
    expect((await get<Stories>(`${b.url}${listing}`, key)).stories).toEqual(stories.stories);

    const detail = await get<{ story_id: string; count: number; articles: Array<{ id: string; story_id: string }> }>(
      `${b.url}/stories/${top?.story_id}?limit=100`,
      key,
    );
    expect(detail).toMatchObject({ story_id: top?.story_id, count: top?.count });
    expect(detail.articles).toHaveLength(top?.count ?? 0);
    // The index was told every relabelling the clustering state holds.
    for (const article of detail.articles)
      expect([article.story_id, storyOf.get(article.id)]).toEqual([top?.story_id, top?.story_id]);

    const client = new Client({ name: "newsindex-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${b.url}/mcp`), { requestInit: { headers: { "x-api-key": key } } }),
    );
    try {
      const tool = await client.callTool({ name: "get_story", arguments: { id: top?.story_id } });
      expect(tool.isError).not.toBe(true);
      expect((tool.structuredContent as { story_id: string; count: number }) ?? {}).toMatchObject({
        story_id: top?.story_id,
        count: top?.count,
      });
    } finally {
      await client.close();
    }

    for (const replica of replicas) replica.child.kill("SIGTERM");
    for (const replica of replicas) expect((await replica.exited).code).toBe(0);
    // No index, story or control database in any data dir: only what a process may lose.
    for (const dataDir of [ingestDir, a.dataDir, b.dataDir]) expect(databasesUnder(dataDir), dataDir).toEqual([]);
  }, 600_000);
});
