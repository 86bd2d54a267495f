import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { connectClient } from "./mcp-client.js";

// The derived-field filters as tool arguments (spec: "`signals` ... Over MCP it
// is an array of {name, min, max}"): the same answers as REST, and the same
// refusals as JSON-RPC -32602 with the spec code in error.data.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023] });
});

afterAll(async () => {
  await server?.close();
});

describe("search_news with derived-field filters", () => {
  it("takes `signals` as an array of {name, min, max}, answering as REST does", async () => {
    const rest = await json<{ total: number }>(
      await server.get("/search?signals=conflict:2:,anxiety::3&event_type=labor_strike"),
    );
    const connected = await connectClient(server);
    try {
      const result = await connected.client.callTool({
        name: "search_news",
        arguments: {
          signals: [
            { name: "conflict", min: 2 },
            { name: "anxiety", max: 3 },
          ],
          event_type: "labor_strike",
        },
      });
      expect((result.structuredContent as { total: number }).total).toBe(rest.total);
      const near = await connected.client.callTool({
        name: "search_news",
        arguments: { near: "48.8566,2.3522", radius_km: 50, limit: 1 },
      });
      const body = near.structuredContent as { results: Array<{ matched_locations?: unknown[] }>; total: number };
      expect(body.total).toBeGreaterThan(0);
      expect(body.results[0]?.matched_locations?.length).toBeGreaterThan(0);
    } finally {
      await connected.close();
    }
  });

  it("refuses an unknown signal with -32602 and code unknown_signal", async () => {
    const connected = await connectClient(server);
    try {
      for (const args of [{ signals: [{ name: "bogus", min: 1 }] }, { signal: "bogus" }]) {
        const error = await connected.client.callTool({ name: "search_news", arguments: args }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ProtocolError);
        expect((error as ProtocolError).code).toBe(-32602);
        expect(((error as ProtocolError).data as { code: string }).code).toBe("unknown_signal");
      }
    } finally {
      await connected.close();
    }
  });
});
