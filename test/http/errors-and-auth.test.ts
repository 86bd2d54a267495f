import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-error.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2016, SAMPLE_FILES.spark] });
});

afterAll(async () => {
  await server.close();
});

describe("authentication", () => {
  it("answers 401 with a JSON body without a key, on every non-public path", async () => {
    for (const path of ["/search", "/search?q=x", "/doc/20160101020000-1", "/v1/search", "/no/such/path", "/account"]) {
      await expectError(await server.get(path, null), 401, "unauthorized");
    }
  });

  it("answers 401 for a wrong key, and a 401 carries no credit headers", async () => {
    const response = await server.get("/search", "nk_not-a-real-key");
    await expectError(response, 401, "unauthorized");
    expect(response.headers.get("x-credits-charged")).toBeNull();
  });

  it("checks the key before the parameters: a bad key with bad parameters is still 401", async () => {
    await expectError(await server.get("/search?limit=5000&lang=en", "nk_wrong"), 401, "unauthorized");
  });

  it("accepts Authorization: Bearer exactly like x-api-key", async () => {
    const viaHeader = await json<{ total: number }>(await server.get("/search?limit=1"));
    const viaBearer = await server.get("/search?limit=1", null, { authorization: `Bearer ${server.key}` });
    expect(viaBearer.status).toBe(200);
    expect((await json<{ total: number }>(viaBearer)).total).toBe(viaHeader.total);
    await expectError(await server.get("/search", null, { authorization: "Bearer nk_wrong" }), 401, "unauthorized");
  });

  it("refuses a revoked key", async () => {
    const issued = await server.container.accounts.issueKey("revoke-me", "build");
    expect((await server.get("/search?limit=1", issued.key)).status).toBe(200);
    expect(await server.container.accounts.revokeKey(issued.record.key_id)).toBe(true);
    await expectError(await server.get("/search?limit=1", issued.key), 401, "unauthorized");
  });

  it("serves the public paths without a key", async () => {
    const openapi = await server.get("/openapi.json", null);
    expect(openapi.status).toBe(200);
    const doc = await json<{ openapi: string; info: { version: string }; paths: Record<string, unknown> }>(openapi);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("0.7.0");
    for (const path of [
      "/llms.txt",
      "/docs/search-recipes.md",
      "/docs/agent-workflow.md",
      "/docs/completeness.md",
      "/docs/changelog.md",
    ]) {
      const response = await server.get(path, null);
      expect(response.status, path).toBe(200);
      expect((await response.text()).length).toBeGreaterThan(100);
    }
  });

  it("answers an unknown path with a valid key as 400 invalid_parameter, not the id endpoints' 404 not_found", async () => {
    await expectError(await server.get("/nope"), 400, "invalid_parameter");
  });
});

describe("parameter validation", () => {
  it("names the closest valid parameter for an unknown one", async () => {
    const body = await expectError(await server.get("/search?lang=eng"), 400, "unknown_parameter");
    expect(body.detail).toContain("'lang'");
    expect(body.detail).toContain("Did you mean 'language'");
    const typo = await expectError(await server.get("/search?limt=5"), 400, "unknown_parameter");
    expect(typo.detail).toContain("Did you mean 'limit'");
    const onDoc = await expectError(await server.get("/doc/20160101020000-1?view=full"), 400, "unknown_parameter");
    expect(onDoc.detail).toContain("'view'");
  });

  it("says which endpoints take a parameter a sibling takes, before the nearest spelling here", async () => {
    const cursor = await expectError(await server.get("/stories?cursor=start"), 400, "unknown_parameter");
    expect(cursor.detail).toContain("It is taken by /search (search_news) and /top-headlines (top_headlines).");
    const facets = await expectError(await server.get("/stories?facets=source"), 400, "unknown_parameter");
    expect(facets.detail).toContain(
      "It is taken by /search (search_news), /top-headlines (top_headlines) and /graph/exposures (shared_exposures).",
    );
    const q = await expectError(await server.get("/top-headlines?q=biden"), 400, "unknown_parameter");
    expect(q.detail).toContain("/search (search_news)");
    expect(q.detail).toContain("/stories (list_stories)");
    expect(q.detail).toContain("POST /watches (create_watch)");
    expect(q.detail).not.toContain("Did you mean");
    // A body field counts too; a path parameter does not.
    const interval = await expectError(await server.get("/search?interval_minutes=60"), 400, "unknown_parameter");
    expect(interval.detail).toContain("It is taken by POST /watches (create_watch).");
    const id = await expectError(await server.get("/search?id=x"), 400, "unknown_parameter");
    expect(id.detail).not.toContain("taken by");
    // A plain typo keeps its suggestion.
    expect((await expectError(await server.get("/search?lang=eng"), 400, "unknown_parameter")).detail).not.toContain("taken by");
  });

  it.each([
    ["limit=101", "limit", "1 to 100"],
    ["limit=0", "limit", "1 to 100"],
    ["limit=ten", "limit", "integer"],
    ["offset=100001", "offset", "0 to 100000"],
    ["offset=-1", "offset", "0 to 100000"],
    ["language=en", "language", "three letters"],
    ["publisher_country=USA", "publisher_country", "two-character"],
    ["source_type=blog", "source_type", "web, citation"],
    ["view=tiny", "view", "full, compact"],
    ["mode=psychic", "mode", "keyword"],
    ["from=2023-02-30", "from", "not a real date"],
    ["from=2023/07/01", "from", "YYYY-MM-DD"],
    ["to=20230702250000", "to", "not a real date"],
    ["from=2023-07-03&to=2023-07-01", "from", "after"],
    ["limit=1&limit=2", "limit", "once"],
    ["q=-only+--", "q", "no word"],
  ])("refuses %s as invalid_parameter naming %s", async (query, parameter, hint) => {
    const body = await expectError(await server.get(`/search?${query}`), 400, "invalid_parameter");
    expect(body.detail).toContain(parameter);
    expect(body.detail).toContain(hint);
  });

  it("charges nothing for a refused call, and says so in the headers", async () => {
    const before = await server.get("/search?limit=1");
    const usedBefore = Number(before.headers.get("x-credits-used"));
    const refused = await server.get("/search?limit=101");
    expect(refused.status).toBe(400);
    expect(refused.headers.get("x-credits-charged")).toBe("0");
    expect(Number(refused.headers.get("x-credits-used"))).toBe(usedBefore);
    const after = await server.get("/search?limit=1");
    expect(Number(after.headers.get("x-credits-used"))).toBe(usedBefore + 1);
  });
});

describe("credit headers", () => {
  it("carries the section 5 headers on authenticated responses, per plan", async () => {
    const issued = await server.container.accounts.issueKey("headers-free", "free");
    const first = await server.get("/search?limit=1", issued.key);
    expect(first.headers.get("x-credits-charged")).toBe("1");
    expect(first.headers.get("x-credits-limit")).toBe("1000");
    expect(first.headers.get("x-credits-used")).toBe("1");
    expect(first.headers.get("x-credits-remaining")).toBe("999");
    expect(first.headers.get("x-credits-per-minute")).toBe("30");
    expect(first.headers.get("x-credits-per-minute-remaining")).toBe("29");
    expect(Number(first.headers.get("x-credits-per-minute-reset"))).toBeGreaterThanOrEqual(1);
    expect(Number(first.headers.get("x-credits-reset"))).toBeGreaterThan(0);
    expect(Number(first.headers.get("x-credits-reset"))).toBeLessThanOrEqual(31 * 86_400);
    expect(first.headers.get("x-plan-history-days")).toBe("30");

    const deep = await server.get("/search?limit=1&offset=2500", issued.key);
    expect(deep.headers.get("x-credits-charged")).toBe("3");
    expect(deep.headers.get("x-credits-used")).toBe("4");
    expect((await json<{ credits_charged: number }>(deep)).credits_charged).toBe(3);

    // Unlimited archive plan: no monthly limit or remaining, full history.
    const archive = await server.get("/search?limit=1");
    expect(archive.headers.get("x-credits-limit")).toBeNull();
    expect(archive.headers.get("x-credits-remaining")).toBeNull();
    expect(archive.headers.get("x-plan-history-days")).toBeNull();
    expect(archive.headers.get("x-credits-per-minute")).toBe("3000");
  });

  it("keeps every key of a tenant on one counter", async () => {
    const a = await server.container.accounts.issueKey("shared-tenant", "build");
    const b = await server.container.accounts.issueKey("shared-tenant", "build");
    await server.get("/search?limit=1", a.key);
    const second = await server.get("/search?limit=1", b.key);
    expect(second.headers.get("x-credits-used")).toBe("2");
  });
});

describe("an unforeseen failure", () => {
  let broken: TestServer;
  beforeAll(async () => {
    broken = await startTestServer({ files: [SAMPLE_FILES.batch2016] });
  });
  afterAll(async () => {
    await broken.close();
  });

  it("is a generic 500 JSON body that leaks nothing internal", async () => {
    // The control database closing under a running server: a real failure nothing foresees.
    await broken.container.close();
    const response = await broken.get("/search?q=x");
    const body = await expectError(response, 500, "internal");
    expect(JSON.stringify(body)).not.toMatch(/database|sqlite|Error:|at \w+ \(/i);
  });
});
