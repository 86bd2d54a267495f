import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { damageMonthlyIndex } from "../support/damage.js";
import { expectError } from "../support/expect-error.js";
import { TestClock } from "../support/test-clock.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// GET /similar/{id} over a real server on the whole sample, every article
// embedded: one article per story, never the seed's story, the plan's window,
// and the refusals (404, 503). The clock
// stands a week after the 2023 batch, so a free key (30 days) reaches that
// batch and none of the older ones.

interface Hit {
  id: string;
  title: string | null;
  story_id: string | null;
  published_at: string;
  score: number;
}

interface Page {
  results: Hit[];
  total: number;
  has_more: boolean;
  mode: string;
  history_days: number | null;
  partial: boolean;
  coverage: string;
}

const clock = new TestClock(Date.UTC(2023, 6, 9, 12, 0, 0));
let server: TestServer;

async function similar(id: string, query = "", key?: string): Promise<{ status: number; body: Page; credits: string | null }> {
  const response = await server.get(`/similar/${id}${query}`, key);
  return { status: response.status, body: await json<Page>(response), credits: response.headers.get("x-credits-charged") };
}

beforeAll(async () => {
  server = await startTestServer({ embed: true, plans: ["free"], clock });
});

afterAll(async () => {
  await server?.close();
});

describe("GET /similar/{id}", () => {
  it("returns one article per story, never the seed or any article of its story", async () => {
    // The Baltimore block-party shooting: a story carried by over twenty outlets.
    const seed = (await json<{ results: Hit[] }>(await server.get("/search?q=%22block+party%22+baltimore&limit=1")))
      .results[0] as Hit;
    const members = await json<{ total: number }>(await server.get(`/search?story_id=${seed.story_id}&limit=1`));
    expect(members.total).toBeGreaterThan(10);
    const { status, body, credits } = await similar(seed.id, "?limit=100&view=compact");
    expect(status).toBe(200);
    expect(credits).toBe("2");
    expect(body).toMatchObject({ mode: "similar", total_relation: "approximate", partial: false, coverage: "complete" });
    expect(body.results.length).toBe(100);
    expect(body.results.some((h) => h.id === seed.id || h.story_id === seed.story_id)).toBe(false);
    expect(new Set(body.results.map((h) => h.story_id)).size).toBe(body.results.length);
    expect(body.total).toBeGreaterThanOrEqual(body.results.length);
    const scores = body.results.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("stays within the plan's window, and refuses a seed older than the plan reaches without charging", async () => {
    const seed = "20230702153000-4";
    const archive = await similar(seed, "?limit=100&view=compact");
    expect(archive.body.history_days).toBeNull();
    expect(archive.body.results.some((h) => h.published_at < "20230609000000")).toBe(true);
    const free = await similar(seed, "?limit=100&view=compact", server.keys.free);
    expect(free.status).toBe(200);
    expect(free.body.history_days).toBe(30);
    expect(free.body.results.length).toBeGreaterThan(0);
    expect(free.body.results.every((h) => h.published_at >= "20230609120000")).toBe(true);

    const older = await server.get("/similar/20200222221500-490", server.keys.free);
    const refused = await expectError(older, 400, "invalid_parameter");
    expect(refused.parameter).toBe("id");
    expect(older.headers.get("x-credits-charged")).toBe("0");
  });

  it("is 404 not_found for an id no article has", async () => {
    await expectError(await server.get("/similar/20230702153000-999999"), 404, "not_found");
  });
});

describe("GET /similar/{id} when a monthly index cannot be read", () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ files: [SAMPLE_FILES.batch2016, SAMPLE_FILES.spark], embed: true });
  });
  afterAll(async () => {
    await small?.close();
  });

  it("answers partial when another month is unreadable, and 503 when the seed's own is", async () => {
    const seed = (await json<{ results: Hit[] }>(await small.get("/search?from=2016-01-01&to=2016-01-02&limit=1")))
      .results[0] as Hit;
    expect((await json<Page>(await small.get(`/similar/${seed.id}`))).partial).toBe(false);
    await damageMonthlyIndex(small, "202003");
    const partial = await small.get(`/similar/${seed.id}`);
    expect(partial.status).toBe(200);
    const body = await json<Page>(partial);
    expect(body.partial).toBe(true);
    expect(body.results.every((h) => !h.id.startsWith("202003"))).toBe(true);
    await damageMonthlyIndex(small, "201601");
    const refused = await small.get(`/similar/${seed.id}`);
    await expectError(refused, 503, "upstream_unavailable");
    expect(refused.headers.get("x-credits-charged")).toBe("0");
  });
});
