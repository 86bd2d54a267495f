import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-error.js";
import { reopen, testOpenSearch, type TestOpenSearch } from "../support/opensearch.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";

// The scaled shape's index over HTTP: a server with NEWSINDEX_INDEX=opensearch
// ingests the bundled sample into a real OpenSearch node and answers from it,
// partial when a monthly index cannot be read and 503 when none can.

describe("NEWSINDEX_INDEX=opensearch over HTTP", () => {
  let node: TestOpenSearch;
  let server: TestServer;

  beforeAll(async () => {
    node = await testOpenSearch();
    server = await startTestServer({
      config: { index: "opensearch", opensearchUrls: node.urls, opensearchPrefix: node.prefix },
    });
  });

  afterAll(async () => {
    await server?.close();
    await node?.dispose();
  });

  it("ingests into the cluster and ranks, browses, facets, expands stories and returns documents from it", async () => {
    expect(server.ingest.inserted).toBe(1360);
    const ranked = await json<{ results: Array<{ id: string; title: string; score: number }>; total: number; coverage: string }>(
      await server.get("/search?q=baltimore+shooting&limit=5"),
    );
    expect(ranked.coverage).toBe("complete");
    expect(ranked.total).toBeGreaterThan(5);
    for (const hit of ranked.results) {
      expect(hit.title.toLowerCase()).toMatch(/baltimore|shooting/);
      expect(hit.score).toBeGreaterThan(0);
    }
    const browse = await json<{ facets: { country: { values: Array<{ value: string }> } }; results: unknown[] }>(
      await server.get("/search?language=fra&facets=country&limit=3"),
    );
    expect(browse.results).toHaveLength(3);
    expect(browse.facets.country.values.length).toBeGreaterThan(0);
    const first = ranked.results[0] as { id: string };
    const doc = await json<{ id: string; quotes: unknown[] }>(await server.get(`/doc/${first.id}`));
    expect(doc.id).toBe(first.id);
    await expectError(await server.get("/doc/20230702153000-424242"), 404, "not_found");
    const stories = await json<{ stories: Array<{ story_id: string; count: number }> }>(
      await server.get("/stories?q=baltimore+shooting&limit=3"),
    );
    expect(stories.stories[0]?.count).toBeGreaterThan(1);
    // Every French article as a line, then the manifest reconciling them to the /search total.
    const total = (await json<{ total: number }>(await server.get("/search?language=fra&limit=1"))).total;
    const lines = (await (await server.get("/export?language=fra&view=compact")).text()).trim().split("\n");
    expect(lines).toHaveLength(total + 1);
    expect(JSON.parse(lines[lines.length - 1] as string).manifest.count).toBe(total);
    expect(new Set(lines.slice(0, -1).map((l) => (JSON.parse(l) as { language: string }).language))).toEqual(new Set(["fra"]));
  });

  it("answers partial when a monthly index cannot be read, and 503 when none of the window can", async () => {
    const month = node.prefix + "-articles-201601";
    await node.client.indices.close({ index: month });
    try {
      const partial = await json<{ partial: boolean; coverage: string; total: number }>(await server.get("/search?limit=1"));
      expect(partial).toMatchObject({ partial: true, coverage: "range_too_wide" });
      expect(partial.total).toBe(1350);
      const refused = await expectError(await server.get("/search?from=2016-01-01&to=2016-01-31"), 503, "upstream_unavailable");
      expect(refused.detail).toMatch(/not evidence/);
    } finally {
      await reopen(node.client, month);
    }
    const whole = await json<{ partial: boolean; total: number }>(await server.get("/search?limit=1"));
    expect(whole).toMatchObject({ partial: false, total: 1360 });
  });
});
