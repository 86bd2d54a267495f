import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseKeywordQuery } from "../../src/domain/keyword-query.js";
import { createLogger } from "../../src/shared/logger.js";
import { controlSql } from "../support/control-sql.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// The security review, as tests a client or an operator would notice: no
// secret in the logs, no framework banner, no cross-origin grant, keys kept
// as hashes, the operator token checked whole, `q` never read as FTS5 or SQL
// syntax, and every request bounded in size.

const ADMIN_TOKEN = "operator-token-0123456789abcdef";

let server: TestServer;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startTestServer({
    files: [SAMPLE_FILES.batch2023],
    adminToken: ADMIN_TOKEN,
    logger: createLogger("trace", { write: (line: string) => void logLines.push(line) }),
  });
});

afterAll(async () => {
  await server.close();
});

function total(body: unknown): number {
  return (body as { total: number }).total;
}

describe("secrets never reach the log", () => {
  it("leaves out keys sent in headers, the query string or the path, and the operator token", async () => {
    const key = server.key;
    await server.get("/search?q=police&limit=1");
    await server.get("/search?limit=1", null, { authorization: `Bearer ${key}` });
    await server.get(`/search?api_key=${key}`);
    await server.get(`/search?q=${key}`);
    await server.get(`/doc/${key}`);
    await server.get(`/nope?token=${encodeURIComponent(ADMIN_TOKEN)}`);
    await fetch(`${server.url}/admin/tenants`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    await fetch(`${server.url}/admin/tenants?t=${encodeURIComponent(ADMIN_TOKEN)}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}x` },
    });
    await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: "{",
    });
    const log = logLines.join("");
    expect(log).toContain('"msg":"request"');
    expect(log).toContain("/search?q=police&limit=1");
    expect(log).not.toContain(key.slice(3));
    expect(log).not.toContain(ADMIN_TOKEN);
    expect(log).not.toContain(encodeURIComponent(ADMIN_TOKEN));
  });
});

describe("headers", () => {
  it("send no x-powered-by and grant no cross-origin access, preflight included", async () => {
    const origin = { origin: "https://attacker.example" };
    const responses = [
      await server.get("/search?limit=1", undefined, origin),
      await server.get("/openapi.json", null, origin),
      await server.get("/account", undefined, origin),
      await fetch(`${server.url}/search`, {
        method: "OPTIONS",
        headers: { ...origin, "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" },
      }),
    ];
    for (const response of responses) {
      expect(response.headers.get("x-powered-by")).toBeNull();
      expect(response.headers.get("server")).toBeNull();
      for (const name of response.headers.keys()) expect(name).not.toMatch(/^access-control-/);
    }
    expect(responses[3]?.status).toBe(401);
  });
});

describe("keys", () => {
  it("are stored as their SHA-256 only and found by it: a key one character off is refused", async () => {
    const key = server.key;
    // Everything the control store keeps: its files, or its PostgreSQL tables' rows.
    const files = ["control.db", "control.db-wal"].filter((name) => existsSync(join(server.dataDir, name)));
    const control =
      server.config.controlStore === "postgres"
        ? Buffer.from(JSON.stringify(await controlSql(server, "SELECT * FROM api_keys")))
        : Buffer.concat(files.map((name) => readFileSync(join(server.dataDir, name))));
    expect(control.includes(Buffer.from(key))).toBe(false);
    expect(control.includes(Buffer.from(createHash("sha256").update(key).digest("hex")))).toBe(true);
    const last = key.at(-1) === "A" ? "B" : "A";
    expect((await server.get("/account", key.slice(0, -1) + last)).status).toBe(401);
    expect((await server.get("/account", key.slice(0, -1))).status).toBe(401);
    expect((await server.get("/account", `${key} `)).status).toBe(200);
  });

  it("the operator token is checked whole: a prefix, an extension or one character off is refused", async () => {
    const admin = (token: string): Promise<Response> =>
      fetch(`${server.url}/admin/tenants`, { headers: { authorization: `Bearer ${token}` } });
    expect((await admin(ADMIN_TOKEN)).status).toBe(200);
    for (const wrong of [ADMIN_TOKEN.slice(0, -1), `${ADMIN_TOKEN}0`, `${ADMIN_TOKEN.slice(0, -1)}0`, "x", server.key]) {
      const response = await admin(wrong);
      expect(response.status).toBe(401);
      expect((await json(response)).code).toBe("unauthorized");
    }
  });
});

describe("hostile keyword queries", () => {
  // FTS5 operators, column filters, prefix stars, NEAR groups, quotes and SQL fragments.
  const hostile = [
    "police NEAR shooting",
    "NEAR(police shooting, 2)",
    "title:police",
    "entities:baltimore",
    "{title entities}:police",
    "police*",
    "*",
    "^police",
    "police AND shooting",
    "police NOT shooting",
    "(police OR shooting)",
    "((((police",
    'police"',
    '"police',
    '""',
    "police'",
    "' OR 1=1 --",
    "'; DROP TABLE articles; --",
    '"); DELETE FROM articles_fts; --',
    "police) OR (1=1",
    "rowid:1",
    "police + shooting",
    "\\x00police",
    "police\u0000shooting",
    "%",
    "_",
    "police -",
    "OR",
    "OR police OR",
  ];

  it.each(hostile)("%j is read as words, never as syntax", async (q) => {
    const response = await server.get(`/search?q=${encodeURIComponent(q)}&limit=1`);
    const body = await json(response);
    // The query language's own reading: words, quoted phrases, OR between items, a leading - to exclude.
    const parsed = parseKeywordQuery(q);
    if (parsed === undefined) {
      expect(response.status).toBe(400);
      expect(body.code).toBe("invalid_parameter");
      expect(body.detail).toContain("'q'");
      return;
    }
    expect(response.status).toBe(200);
    // The same reading written plainly (each phrase quoted, OR and - as parsed) finds the same articles: nothing
    // else in the text (FTS5 or SQL syntax, stray quotes, brackets) added or removed anything.
    const phrase = (words: readonly string[]): string => `"${words.join(" ")}"`;
    const plain = [
      ...parsed.must.map((clause) => clause.anyOf.map(phrase).join(" OR ")),
      ...parsed.mustNot.map((clause) => clause.anyOf.map((words) => `-${phrase(words)}`).join(" ")),
    ].join(" ");
    expect(total(body)).toBe(total(await json(await server.get(`/search?q=${encodeURIComponent(plain)}&limit=1`))));
  });

  it("leaves the index whole after them", async () => {
    const before = total(await json(await server.get("/search?q=police&limit=1")));
    for (const q of hostile) await server.get(`/search?q=${encodeURIComponent(q)}&limit=1`);
    expect(total(await json(await server.get("/search?q=police&limit=1")))).toBe(before);
    expect(before).toBeGreaterThan(0);
  });

  it("filters are values, never SQL", async () => {
    for (const query of ["source=x'%20OR%20'1'='1", "person=a%22%20OR%201=1", "topic=%25", "author=_"]) {
      const response = await server.get(`/search?${query}&limit=1`);
      expect(response.status).toBe(200);
      expect(total(await json(response))).toBe(0);
    }
  });
});

describe("request sizes are bounded", () => {
  it("refuses a header over 16 KB with the spec's body", async () => {
    const response = await server.get("/search?limit=1", undefined, { "x-padding": "p".repeat(20_000) });
    expect(response.status).toBe(400);
    expect((await json(response)).code).toBe("invalid_parameter");
  });

  it("refuses thousands of parameters at the first problem, quickly", async () => {
    const many = Array.from({ length: 1_500 }, (_, i) => `p${i}=1`).join("&");
    const unknown = await server.get(`/search?${many}`);
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).code).toBe("unknown_parameter");
    const repeated = await server.get(`/search?${"limit=1&".repeat(1_500)}`);
    expect(repeated.status).toBe(400);
    expect((await json(repeated)).detail).toContain("1500 times");
  });

  it("refuses an MCP body over 256 KiB with 413 and the spec's body", async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "x-api-key": server.key, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(300_000) } }),
    });
    expect(response.status).toBe(413);
    expect((await json(response)).code).toBe("payload_too_large");
  });
});
