import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/shared/logger.js";
import { expectError } from "../support/expect-error.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { scaledShape } from "../support/test-shape.js";

// The contract at its edges over REST: hostile bodies are 400 (never 500 or a
// REST 413), the key-free paths are exactly the spec's seven, a preview says
// when the call would be refused, and a full disk under the control store is
// a retryable 503 logged once.

const logLines: string[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    files: [SAMPLE_FILES.batch2016],
    plans: ["free"],
    logger: createLogger("error", { write: (line: string) => void logLines.push(line) }),
  });
});

afterAll(async () => {
  await server?.close();
});

function postWatch(body: string, key: string = server.key, query = ""): Promise<Response> {
  return fetch(`${server.url}/watches${query}`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body,
  });
}

const CREDIT_HEADERS = ["x-credits-charged", "x-credits-per-minute-remaining", "x-credits-per-minute", "x-credits-used"];

describe("hostile watch bodies", () => {
  it("answers a field nested 5,000 deep with 400, not a 500", async () => {
    const deep = "[".repeat(5_000) + "]".repeat(5_000);
    const response = await postWatch(`{"interval_minutes":60,"q":${deep}}`);
    const body = await expectError(response, 400, "invalid_parameter");
    expect(body.parameter).toBe("q");
    expect(response.headers.get("x-credits-charged")).toBe("0");
  });

  it("answers a 2 MB body with 400 invalid_parameter naming the limit, with the credit headers", async () => {
    const response = await postWatch(JSON.stringify({ interval_minutes: 60, q: "x".repeat(2_000_000) }));
    const body = await expectError(response, 400, "invalid_parameter");
    expect(body.detail).toContain("1048576 bytes");
    for (const header of CREDIT_HEADERS) expect(response.headers.get(header), header).not.toBeNull();
    expect(response.headers.get("x-credits-charged")).toBe("0");
  });

  it("checks the key before the size: a 2 MB body without a key is 401", async () => {
    const response = await postWatch(JSON.stringify({ q: "x".repeat(2_000_000) }), "nk_wrong");
    await expectError(response, 401, "unauthorized");
  });

  it("answers malformed JSON with 400 and the credit headers", async () => {
    const response = await postWatch("{not json");
    await expectError(response, 400, "invalid_parameter");
    expect(response.headers.get("x-credits-charged")).toBe("0");
  });
});

describe("key-free paths", () => {
  const PUBLIC = [
    "/openapi.json",
    "/mcp/tools.json",
    "/llms.txt",
    "/docs/search-recipes.md",
    "/docs/agent-workflow.md",
    "/docs/completeness.md",
    "/docs/changelog.md",
  ];
  const KEYED = ["/docs/mcp.md", "/docs/watches.md", "/docs/relationships.md", "/docs/signals-and-events.md"];

  it("are exactly the spec's seven", async () => {
    for (const path of PUBLIC) expect((await server.get(path, null)).status, path).toBe(200);
    for (const path of KEYED) await expectError(await server.get(path, null), 401, "unauthorized");
  });

  it("serve the client reference behind a key, free, with the credit headers", async () => {
    for (const path of KEYED) {
      const response = await server.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/markdown/);
      expect(response.headers.get("x-credits-charged")).toBe("0");
      expect((await response.text()).length).toBeGreaterThan(500);
    }
  });

  it("never serve the operator's page, which names the testing-only settings", async () => {
    await expectError(await server.get("/docs/operators.md", null), 401, "unauthorized");
    const withKey = await server.get("/docs/operators.md");
    expect(withKey.status).toBe(400);
    expect(await withKey.text()).not.toContain("NEWSINDEX_WEBHOOK_TEST_HOST");
    for (const path of ["/llms.txt", "/docs/completeness.md", "/docs/agent-workflow.md"]) {
      expect(await (await server.get(path, null)).text(), path).not.toContain("NEWSINDEX_WEBHOOK_TEST");
    }
  });
});

describe("a preview of a call that would be refused", () => {
  it("says would_run false and why when the plan's watch cap is reached", async () => {
    const key = server.keys.free as string;
    const watch = JSON.stringify({ interval_minutes: 60, q: "new year" });
    const ok = await json<{ would_run: boolean }>(await postWatch(watch, key, "?estimate=true"));
    expect(ok).toMatchObject({ estimate: true, would_run: true });
    // The free plan keeps two watches.
    for (let i = 0; i < 2; i++) expect((await postWatch(watch, key)).status).toBe(201);
    const preview = await postWatch(watch, key, "?estimate=true");
    expect(preview.status).toBe(200);
    const body = await json<{ would_run: boolean; refusal?: string; refusal_detail?: string; credits_charged: number }>(preview);
    expect(body.would_run).toBe(false);
    expect(body.refusal).toBe("watch_limit");
    expect(body.refusal_detail).toContain("allows 2 watches");
    expect(body.credits_charged).toBe(0);
    await expectError(await postWatch(watch, key), 400, "watch_limit");
  });
});

// SQLite's page limit makes a real full disk under the embedded control store; PostgreSQL's disk is the server's own.
describe.skipIf(scaledShape())("a full disk under the control store", () => {
  interface Db {
    exec(sql: string): void;
    pragma(sql: string, options?: { simple: boolean }): unknown;
    prepare(sql: string): { run(...values: unknown[]): unknown };
  }

  /** The server's own control-store connection: SQLite's page limit on it makes a real SQLITE_FULL, as a full disk does. */
  function controlDb(): Db {
    return (server.container.credits as unknown as { store: { db: Db } }).store.db;
  }

  /**
   * Sets the database's size limit to its present size, then fills the pages
   * of the credit tables with rows at random keys, smaller and smaller, until
   * no page takes even the smallest: a new tenant's first counters find no room.
   */
  function fillDisk(db: Db): void {
    db.pragma(`max_page_count = ${Number(db.pragma("page_count", { simple: true }))}`);
    db.pragma("foreign_keys = OFF");
    const fillers = [
      db.prepare("INSERT INTO buckets VALUES ('filler-' || hex(randomblob(?)), 'x', 0, 0)"),
      db.prepare("INSERT INTO credit_months VALUES ('filler-' || hex(randomblob(?)), 'x', 0)"),
    ];
    for (const insert of fillers) {
      for (const size of [200, 50, 10, 2, 1]) {
        for (let refused = 0; refused < 200;) {
          try {
            insert.run(size);
            refused = 0;
          } catch (error) {
            const code = (error as { code?: string }).code;
            if (code === "SQLITE_FULL") refused++;
            else if (code !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw error;
          }
        }
      }
    }
    db.pragma("foreign_keys = ON");
  }

  function freeDisk(db: Db): void {
    db.exec("DELETE FROM buckets WHERE tenant_id LIKE 'filler-%'; DELETE FROM credit_months WHERE tenant_id LIKE 'filler-%'");
    db.pragma("max_page_count = 1073741823");
  }

  it("answers 503 upstream_unavailable with a JSON body and retry-after, charges nothing, logs it once, and recovers", async () => {
    const { key } = await server.container.accounts.issueKey("full-disk", "build");
    const db = controlDb();
    fillDisk(db);
    logLines.length = 0;
    for (let i = 0; i < 3; i++) {
      const response = await server.get("/search?q=new+year&limit=1", key);
      const body = await expectError(response, 503, "upstream_unavailable");
      expect(body.detail).toContain("storage is full");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Over MCP: the same refusal as a tool error carrying the body.
    const mcp = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "x-api-key": key,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_news","arguments":{"q":"new year"}}}',
    });
    const answer = await json<{ result?: { isError?: boolean; structuredContent?: { code?: string } } }>(mcp);
    expect(answer.result?.isError).toBe(true);
    expect(answer.result?.structuredContent?.code).toBe("upstream_unavailable");
    expect(logLines.filter((line) => line.includes("storage full")).length).toBe(1);

    freeDisk(db);
    const after = await server.get("/search?q=new+year&limit=1", key);
    expect(after.status).toBe(200);
    const account = await json<{ credits_used: number }>(await server.get("/account", key));
    expect(account.credits_used).toBe(Number(after.headers.get("x-credits-charged")));
  });
});
