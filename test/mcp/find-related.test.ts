import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { connectClient } from "./mcp-client.js";

// find_related is /similar/{id} as an MCP tool: the same body, with credits_charged.

type Hit = { id: string; story_id: string | null };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.bigquery], embed: true });
});

afterAll(async () => {
  await server?.close();
});

describe("find_related", () => {
  it("answers the /similar body: nearest stories, never the seed's", async () => {
    const seed = (await json<{ results: Hit[] }>(await server.get("/search?limit=1"))).results[0] as Hit;
    const connected = await connectClient(server);
    try {
      const result = await connected.client.callTool({ name: "find_related", arguments: { id: seed.id, limit: 5 } });
      expect(result.isError ?? false).toBe(false);
      const body = result.structuredContent as { results: Hit[]; mode: string; total_relation: string; credits_charged: number };
      expect(body).toMatchObject({ mode: "similar", total_relation: "approximate", credits_charged: 2 });
      expect(body.results.length).toBe(5);
      expect(body.results.some((h) => h.id === seed.id || h.story_id === (seed.story_id ?? seed.id))).toBe(false);
      const rest = await json<{ results: Hit[] }>(await server.get(`/similar/${seed.id}?limit=5`));
      expect(body.results.map((h) => h.id)).toEqual(rest.results.map((h) => h.id));

      const unknown = await connected.client.callTool({ name: "find_related", arguments: { id: "20200222000000-999999" } });
      expect(unknown.isError).toBe(true);
      expect(
        unknown.structuredContent ?? JSON.parse((unknown.content as Array<{ text: string }>)[0]?.text ?? "{}"),
      ).toMatchObject({
        code: "not_found",
      });
    } finally {
      await connected.close();
    }
  });
});
