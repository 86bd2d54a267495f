import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { pooledFetch, type PooledFetch } from "./mcp-client.js";

// Most deployed MCP clients are built on SDK 1.x (the Inspector, the
// conformance suite, desktop assistants). It validates structuredContent
// against the output schema even on tool errors, so every body a tool returns,
// result, price preview or error, must fit the declared schema.

let server: TestServer;
let client: Client;
let pool: PooledFetch;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2016] });
  client = new Client({ name: "sdk1-test", version: "1.0.0" });
  pool = pooledFetch();
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${server.key}` } },
    fetch: pool.fetch,
  });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await pool?.destroy();
  await server?.close();
});

describe("an SDK 1.x client", () => {
  it("negotiates 2025-11-25 and lists the tools", async () => {
    expect(client.getServerVersion()?.name).toBe("newsindex");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("search_news");
  });

  it("accepts results, price previews and tool errors against the declared output schemas", async () => {
    const search = await client.callTool({ name: "search_news", arguments: { q: "police", limit: 2 } });
    expect(search.structuredContent).toMatchObject({ mode: "keyword", credits_charged: 1 });
    const preview = await client.callTool({ name: "search_news", arguments: { q: "police", estimate: true } });
    expect(preview.structuredContent).toMatchObject({ estimate: true, credits_charged: 0 });
    const missing = await client.callTool({ name: "get_article", arguments: { id: "20160101020000-999999" } });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ code: "not_found", credits_charged: 1 });
    const account = await client.callTool({ name: "account_status", arguments: {} });
    expect(account.structuredContent).toMatchObject({ calls_this_session: 4, credits_this_session: 2 });
  });

  it("sees the 400 family as McpError -32602 with the spec body", async () => {
    const error = await client.callTool({ name: "search_news", arguments: { lang: "eng" } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain("Did you mean 'language'");
    expect((error as McpError).data).toMatchObject({ code: "unknown_parameter" });
  });
});
