import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPACT_ARTICLE_FIELDS } from "../../src/domain/article.js";
import { TestClock } from "../support/test-clock.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";

// GET /top-headlines (spec section 4): newest first, no `q`, every shared
// filter, offset/limit/facets/facet_limit/view/cursor, `mode: recent`.

interface Body {
  results: Array<Record<string, unknown> & { id: string; published_at: string }>;
  total: number;
  total_relation: string;
  has_more: boolean;
  mode: string;
  history_days: number | null;
  from_clamped: boolean;
  partial: boolean;
  coverage: string;
  credits_charged: number;
  attribution: string;
  next_cursor?: string;
}

let server: TestServer;
// The clock stands a week after the 2023 batch, so a 30-day plan reaches back into June 2023.
const clock = new TestClock(Date.UTC(2023, 6, 9, 12, 0, 0));

beforeAll(async () => {
  server = await startTestServer({ plans: ["free", "build"], clock });
});

afterAll(async () => {
  await server.close();
});

async function get(path: string, key?: string): Promise<{ status: number; body: Body; headers: Headers }> {
  const response = await server.get(path, key);
  return { status: response.status, body: await json<Body>(response), headers: response.headers };
}

describe("GET /top-headlines", () => {
  it("lists the newest articles first, mode recent, exactly like a /search browse", async () => {
    const { status, body, headers } = await get("/top-headlines?limit=50");
    expect(status).toBe(200);
    expect(body.mode).toBe("recent");
    expect(body.total).toBe(server.ingest.inserted);
    expect(body.total_relation).toBe("exact");
    expect(body.credits_charged).toBe(1);
    expect(headers.get("x-credits-charged")).toBe("1");
    expect(body.attribution).toContain("GDELT");
    for (const hit of body.results) expect(hit).not.toHaveProperty("score");
    const browse = (await get("/search?limit=50")).body;
    expect(body.results.map((h) => h.id)).toEqual(browse.results.map((h) => h.id));
  });

  it("has no q and no mode", async () => {
    for (const param of ["q=biden", "mode=keyword"]) {
      const response = await server.get(`/top-headlines?${param}`);
      expect(response.status).toBe(400);
      const body = await json<{ code: string; detail: string }>(response);
      expect(body.code).toBe("unknown_parameter");
      expect(body.detail).toContain("/top-headlines");
    }
  });

  it("keeps exactly the compact fields with view=compact", async () => {
    const { body } = await get("/top-headlines?view=compact&limit=5&language=fra");
    const expected = COMPACT_ARTICLE_FIELDS.filter((f) => f !== "score").sort();
    expect(body.results.length).toBe(5);
    for (const hit of body.results) expect(Object.keys(hit).sort()).toEqual(expected);
  });

  it("polls with from: only articles published since, newest first", async () => {
    const { body } = await get("/top-headlines?from=20230702150000&limit=100");
    expect(body.total).toBeGreaterThan(0);
    for (const hit of body.results) expect(hit.published_at >= "20230702150000").toBe(true);
  });

  it("pages with a cursor", async () => {
    const first = (await get("/top-headlines?limit=3&cursor=start&source_type=web")).body;
    expect(first.results).toHaveLength(3);
    expect(first.next_cursor).toBeDefined();
    const second = (await get(`/top-headlines?limit=3&source_type=web&cursor=${first.next_cursor}`)).body;
    const byOffset = (await get("/top-headlines?limit=6&source_type=web")).body;
    expect([...first.results, ...second.results].map((h) => h.id)).toEqual(byOffset.results.map((h) => h.id));
  });
});

describe("plan window on /top-headlines and /search", () => {
  it("moves an older from forward to the plan's reach and says so; a free plan sees 30 days", async () => {
    for (const path of ["/top-headlines", "/search"]) {
      const { status, body, headers } = await get(`${path}?from=2015-01-01&limit=100`, server.keys.free);
      expect(status).toBe(200);
      expect(body.history_days).toBe(30);
      expect(body.from_clamped).toBe(true);
      expect(headers.get("x-plan-history-days")).toBe("30");
      // The window starts 2023-06-09: the 2023 batch's recent articles only.
      expect(body.total).toBeGreaterThan(0);
      for (const hit of body.results) expect(hit.published_at >= "20230609120000").toBe(true);
      const archive = (await get(`${path}?from=2015-01-01&limit=1`)).body;
      expect(archive.from_clamped).toBe(false);
      expect(archive.history_days).toBeNull();
      expect(archive.total).toBeGreaterThan(body.total);
    }
  });

  it("applies the plan's reach without a from, and does not flag it", async () => {
    const { body } = await get("/top-headlines?limit=1", server.keys.free);
    expect(body.from_clamped).toBe(false);
    const clamped = (await get("/top-headlines?limit=1&from=2015-01-01", server.keys.free)).body;
    expect(body.total).toBe(clamped.total);
    const build = (await get("/top-headlines?limit=1", server.keys.build)).body;
    expect(build.history_days).toBe(365);
    expect(build.total).toBeGreaterThanOrEqual(body.total);
  });

  it("leaves a from inside the reach alone", async () => {
    const { body } = await get("/top-headlines?from=2023-07-01&limit=1", server.keys.free);
    expect(body.from_clamped).toBe(false);
  });

  it("keeps a cursor valid across pages while the plan boundary moves", async () => {
    const first = (await get("/top-headlines?limit=5&cursor=start", server.keys.free)).body;
    clock.advance(60_000);
    const second = await get(`/top-headlines?limit=5&cursor=${first.next_cursor}`, server.keys.free);
    expect(second.status).toBe(200);
    expect(second.body.results[0]?.id).not.toBe(first.results[0]?.id);
  });
});
