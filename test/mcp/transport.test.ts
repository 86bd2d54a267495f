import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { connectClient, postRaw } from "./mcp-client.js";

// The Streamable HTTP transport as the spec's "MCP endpoint" section states it:
// 401 before any JSON-RPC, negotiated protocol versions, 202 for
// notifications, 413 for a body too large, GET opens the event stream, DELETE
// ends a session. Real HTTP against a real server.

interface ErrorBody {
  error: string;
  code: string;
  detail: string;
}

interface RpcAnswer {
  jsonrpc: string;
  id?: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

const initialize = (protocolVersion: string, id = 1): string =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw-test", version: "1.0.0" } },
  });

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2016], plans: ["free"] });
});

afterAll(async () => {
  await server?.close();
});

describe("authentication before any JSON-RPC", () => {
  it("answers 401 with the spec's JSON body to a missing or wrong key, and opens no session", async () => {
    for (const key of [null, "nk_not-a-real-key"]) {
      const response = await postRaw(server, initialize("2025-11-25"), {}, key);
      expect(response.status).toBe(401);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      const body = await json<ErrorBody>(response);
      expect(body.code).toBe("unauthorized");
      expect(body.detail.length).toBeGreaterThan(10);
    }
  });

  it("refuses GET and DELETE without a key too", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${server.url}/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(response.status, method).toBe(401);
      expect((await json<ErrorBody>(response)).code).toBe("unauthorized");
    }
  });

  it("makes the SDK client's connect fail with the 401", async () => {
    await expect(connectClient(server, { key: "nk_wrong" })).rejects.toThrow(/401|unauthorized/i);
  });

  it("accepts Authorization: Bearer exactly like x-api-key", async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${server.key}`,
      },
      body: initialize("2025-11-25"),
    });
    expect(response.status).toBe(200);
    expect((await json<RpcAnswer>(response)).result?.protocolVersion).toBe("2025-11-25");
  });

  it("serves /docs/mcp.md to a key (it is not one of the key-free paths), saying that our contract decides the error form", async () => {
    expect((await server.get("/docs/mcp.md", null)).status).toBe(401);
    const response = await server.get("/docs/mcp.md");
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("-32602");
    expect(text).toContain("Our contract decides where MCP conventions differ");
  });

  it("serves /mcp/tools.json without a key", async () => {
    const response = await server.get("/mcp/tools.json", null);
    expect(response.status).toBe(200);
    expect((await json<{ tools: unknown[] }>(response)).tools.length).toBeGreaterThan(0);
  });
});

describe("protocol versions", () => {
  it("answers a 2025 client with the version it offered", async () => {
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) {
      const answer = await json<RpcAnswer>(await postRaw(server, initialize(version)));
      expect(answer.result?.protocolVersion, version).toBe(version);
      expect(answer.result?.serverInfo).toMatchObject({ name: "newsindex" });
    }
  });

  it("answers an unknown version with the one it picked", async () => {
    const answer = await json<RpcAnswer>(await postRaw(server, initialize("1999-01-01")));
    expect(answer.result?.protocolVersion).toBe("2025-11-25");
  });

  it("negotiates 2025-11-25 with the SDK's initialize handshake and 2026-07-28 with the per-request envelope", async () => {
    const legacy = await connectClient(server, { era: "2025" });
    expect(legacy.client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    await legacy.close();
    const modern = await connectClient(server, { era: "modern" });
    expect(modern.client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    await modern.close();
  });

  it("issues a session id with a 2025 handshake, which the client echoes", async () => {
    const response = await postRaw(server, initialize("2025-11-25"));
    expect(response.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    const connected = await connectClient(server);
    expect(connected.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await connected.close();
  });

  it("is served under /v1 too", async () => {
    const response = await fetch(`${server.url}/v1/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-api-key": server.key },
      body: initialize("2025-11-25"),
    });
    expect(response.status).toBe(200);
  });
});

describe("HTTP statuses of the transport", () => {
  it("answers a notification with 202 and no body", async () => {
    const response = await postRaw(server, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("answers a body over the limit with 413 and the spec's JSON body", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_news", arguments: { q: "x".repeat(300 * 1024) } },
    });
    const response = await postRaw(server, huge);
    expect(response.status).toBe(413);
    expect((await json<ErrorBody>(response)).code).toBe("payload_too_large");
    // The key is checked before the body is read.
    expect((await postRaw(server, huge, {}, null)).status).toBe(401);
  });

  it("answers a body that is not JSON with JSON-RPC -32700", async () => {
    const response = await postRaw(server, "{not json");
    expect(response.status).toBe(400);
    expect((await json<RpcAnswer>(response)).error?.code).toBe(-32700);
  });

  it("answers a body sent as another media type with 415", async () => {
    const response = await postRaw(server, initialize("2025-11-25"), { "content-type": "text/plain" });
    expect(response.status).toBe(415);
  });

  it("refuses a browser Origin that is not local (DNS rebinding) and accepts a local one", async () => {
    const evil = await postRaw(server, initialize("2025-11-25"), { origin: "http://evil.example.com" });
    expect(evil.status).toBe(403);
    const local = await postRaw(server, initialize("2025-11-25"), { origin: "http://localhost:6274" });
    expect(local.status).toBe(200);
  });

  it("opens an event stream on GET", async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/mcp`, {
      headers: { accept: "text/event-stream", "x-api-key": server.key },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toMatch(/^:/);
    controller.abort();
  });

  it("answers a GET that does not accept an event stream with 406", async () => {
    const response = await fetch(`${server.url}/mcp`, { headers: { accept: "application/json", "x-api-key": server.key } });
    expect(response.status).toBe(406);
  });

  it("ends a session on DELETE, which the SDK client sends", async () => {
    const connected = await connectClient(server);
    await connected.transport.terminateSession();
    expect(connected.transport.sessionId).toBeUndefined();
    await connected.close();
    const response = await fetch(`${server.url}/mcp`, {
      method: "DELETE",
      headers: { "x-api-key": server.key, "mcp-session-id": "any-session" },
    });
    expect(response.status).toBe(204);
  });
});

describe("message rate limit", () => {
  it("answers protocol requests past the plan's message rate with HTTP 429 and retry-after", async () => {
    const issued = await server.container.accounts.issueKey("chatty-free", "free");
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    let limited: Response | undefined;
    for (let i = 0; i < 80 && limited === undefined; i++) {
      const response = await postRaw(server, list, {}, issued.key);
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(200);
    }
    expect(limited).toBeDefined();
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = await json<ErrorBody & { messages_per_minute: number }>(limited as Response);
    expect(body.code).toBe("message_rate_limited");
    expect(body.messages_per_minute).toBeGreaterThan(0);

    // A free tool call (it takes a message token too) meets the same limit as an HTTP 429, not as a tool result.
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "account_status", arguments: {} },
    });
    // The bucket refills continuously (a token every 60/messages_per_minute s), so a call may find one refilled:
    // it is answered; the next ones, sent at once, are not.
    let refused = await postRaw(server, call, {}, issued.key);
    for (let i = 0; i < 10 && refused.status === 200; i++) refused = await postRaw(server, call, {}, issued.key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect((await json<ErrorBody>(refused)).code).toBe("message_rate_limited");
  });
});
