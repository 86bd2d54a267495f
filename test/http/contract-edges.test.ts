import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/shared/logger.js";
import { expectError } from "../support/expect-error.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

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
