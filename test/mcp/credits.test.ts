import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditPeriod } from "../../src/usecases/accounts/credit-headers.js";
import { controlSql } from "../support/control-sql.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { TestClock } from "../support/test-clock.js";
import { connectClient, type Era } from "./mcp-client.js";

// Credits over MCP (spec section 5, MCP column): initialize, tools/list and
// account_status cost 0; suspension and spent credits are tool errors on the
// call that costs something, carrying the REST body, while initialize and
// tools/list still succeed. States are real: rows of the server's control.db.

type Body = Record<string, unknown>;

const clock = new TestClock(Date.UTC(2026, 5, 15, 12, 0, 0));
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2016], clock });
});

afterAll(async () => {
  await server?.close();
});

async function toolCall(key: string, era: Era, name: string, args: Body): Promise<{ body: Body; isError: boolean }> {
  const connected = await connectClient(server, { key, era });
  try {
    const { tools } = await connected.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const result = await connected.client.callTool({ name, arguments: args });
    return { body: result.structuredContent as Body, isError: result.isError === true };
  } finally {
    await connected.close();
  }
}

describe.each<Era>(["2025", "modern"])("refusals as tool errors (%s era)", (era) => {
  it("reports suspension on the costly call; initialize and tools/list still succeed", async () => {
    const issued = await server.container.accounts.issueKey(`suspended-${era}`, "build");
    // The server's real control database, changed as an operator's tool would.
    await controlSql(server, "UPDATE tenants SET suspended = TRUE WHERE id = ?", [issued.tenant.id]);

    const { body, isError } = await toolCall(issued.key, era, "search_news", { q: "police" });
    expect(isError).toBe(true);
    const rest = await server.get("/search?q=police", issued.key);
    expect(rest.status).toBe(402);
    expect(body).toEqual({ ...(await json<Body>(rest)), credits_charged: 0 });
    expect(body.code).toBe("suspended");
  });

  it("reports a spent minute as credit_rate_limited, with retry_after_secs, not as HTTP 429", async () => {
    const issued = await server.container.accounts.issueKey(`minute-${era}`, "free");
    const connected = await connectClient(server, { key: issued.key, era });
    let refusal: Body | undefined;
    for (let i = 0; i < 40 && refusal === undefined; i++) {
      const result = await connected.client.callTool({ name: "search_news", arguments: { limit: 1 } });
      if (result.isError === true) refusal = result.structuredContent as Body;
    }
    await connected.close();
    expect(refusal).toMatchObject({ code: "credit_rate_limited", credits_charged: 0 });
    expect(refusal?.retry_after_secs).toBeGreaterThanOrEqual(1);
    expect(refusal?.credits_per_minute).toBe(30);
  });

  it("reports a spent month on a hard-capped key as insufficient_credits", async () => {
    const issued = await server.container.accounts.issueKey(`month-${era}`, "free");
    await controlSql(
      server,
      "INSERT INTO credit_months (tenant_id, period, credits_used) VALUES (?, ?, 1000) " +
        "ON CONFLICT (tenant_id, period) DO UPDATE SET credits_used = excluded.credits_used",
      [issued.tenant.id, creditPeriod(clock.now())],
    );
    const { body, isError } = await toolCall(issued.key, era, "search_news", { q: "police" });
    expect(isError).toBe(true);
    expect(body).toMatchObject({ code: "insufficient_credits", credits_limit: 1000, credits_remaining: 0, credits_charged: 0 });
    const rest = await server.get("/search?q=police", issued.key);
    expect(rest.status).toBe(429);
    expect(body).toEqual({ ...(await json<Body>(rest)), credits_charged: 0 });
  });

  it("charges account_status nothing", async () => {
    const issued = await server.container.accounts.issueKey(`account-${era}`, "build");
    const { body, isError } = await toolCall(issued.key, era, "account_status", {});
    expect(isError).toBe(false);
    expect(body).toMatchObject({ credits_charged: 0, credits_used: 0, plan: "build" });
  });
});

describe("account_status session counters", () => {
  async function accountStatus(key: string, headers: Record<string, string> = {}): Promise<Body> {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        "x-api-key": key,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "account_status", arguments: {} } }),
    });
    const answer = await json<{ result: { structuredContent: Body } }>(response);
    return answer.result.structuredContent;
  }

  it("counts the calls and credits of the SDK client's session, this call included", async () => {
    const connected = await connectClient(server);
    await connected.client.callTool({ name: "search_news", arguments: { q: "police" } });
    await connected.client.callTool({ name: "search_news", arguments: { offset: 1000, limit: 1 } });
    await connected.client.callTool({ name: "search_news", arguments: { limt: 1 } }).catch(() => undefined);
    const status = (await connected.client.callTool({ name: "account_status", arguments: {} })).structuredContent as Body;
    expect(status).toMatchObject({ calls_this_session: 4, credits_this_session: 3, credits_charged: 0 });
    await connected.close();

    // A new connection is a new session.
    const next = await connectClient(server);
    const fresh = (await next.client.callTool({ name: "account_status", arguments: {} })).structuredContent as Body;
    expect(fresh).toMatchObject({ calls_this_session: 1, credits_this_session: 0 });
    await next.close();
  });

  it("declares the two fields in account_status's output schema, and only there", async () => {
    const { tools } = await json<{ tools: Array<{ name: string; outputSchema: { anyOf: Body[] } }> }>(
      await server.get("/mcp/tools.json", null),
    );
    for (const tool of tools) {
      const result = tool.outputSchema.anyOf[0] as { properties: Body; required: string[] };
      const has = "calls_this_session" in result.properties;
      expect(has, tool.name).toBe(tool.name === "account_status");
      if (has) expect(result.required).toEqual(expect.arrayContaining(["calls_this_session", "credits_this_session"]));
    }
  });

  it("keys a session by the id the client echoes and its API key; DELETE ends it", async () => {
    const other = (await server.container.accounts.issueKey("session-other", "build")).key;
    await accountStatus(server.key, { "mcp-session-id": "s-1" });
    expect(await accountStatus(server.key, { "mcp-session-id": "s-1" })).toMatchObject({ calls_this_session: 2 });
    expect(await accountStatus(other, { "mcp-session-id": "s-1" })).toMatchObject({ calls_this_session: 1 });

    const ended = await fetch(`${server.url}/mcp`, {
      method: "DELETE",
      headers: { "x-api-key": server.key, "mcp-session-id": "s-1" },
    });
    expect(ended.status).toBe(204);
    expect(await accountStatus(server.key, { "mcp-session-id": "s-1" })).toMatchObject({ calls_this_session: 1 });
  });

  it("counts calls without a session id (2026-07-28 clients) toward the key's default session, which idles out", async () => {
    const key = (await server.container.accounts.issueKey("session-default", "build")).key;
    const modern = await connectClient(server, { key, era: "modern" });
    await modern.client.callTool({ name: "search_news", arguments: { limit: 1 } });
    const status = (await modern.client.callTool({ name: "account_status", arguments: {} })).structuredContent as Body;
    expect(status).toMatchObject({ calls_this_session: 2, credits_this_session: 1 });
    expect(await accountStatus(key)).toMatchObject({ calls_this_session: 3 });

    clock.advance(31 * 60_000);
    expect(await accountStatus(key)).toMatchObject({ calls_this_session: 1, credits_this_session: 0 });
    await modern.close();
  });
});
