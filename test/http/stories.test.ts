import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoryDetail } from "../../src/schemas/responses.js";
import { damageMonthlyIndex } from "../support/damage.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// Stories over HTTP, on the real 2023-07-02 15:30 batch, clustered at ingest.

/** The Story-detail body, or an error body. */
type StoryBody = StoryDetail & {
  articles: Array<{ id: string; published_at: string; story_id: string; source: string }>;
  code?: string;
  credits_charged: number;
  detail?: string;
};

let server: TestServer;
let baltimore: string;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016] });
  const hit = await json<{ results: Array<{ story_id: string }> }>(
    await server.get("/search?q=%22baltimore+block+party%22&limit=1"),
  );
  baltimore = (hit.results[0] as { story_id: string }).story_id;
});

afterAll(async () => {
  await server.close();
});

async function story(path: string): Promise<{ status: number; body: StoryBody; headers: Headers }> {
  const response = await server.get(path);
  return { status: response.status, body: await json<StoryBody>(response), headers: response.headers };
}

describe("GET /stories/{id}", () => {
  it("answers a string title always: a titled member's when any has one, empty when none has a headline", async () => {
    const list = async (window: string) =>
      (await json<{ stories: Array<{ story_id: string }> }>(await server.get(`/stories?${window}&limit=100`))).stories;
    // The 2016 batch carries no page titles at all.
    const untitled = await list("from=2016-01-01&to=2016-01-31");
    expect(untitled.length).toBeGreaterThan(0);
    for (const { story_id } of untitled) expect((await story(`/stories/${story_id}`)).body.title, story_id).toBe("");
    for (const { story_id } of (await list("from=2023-07-01&to=2023-07-31")).slice(0, 30)) {
      const { body } = await story(`/stories/${story_id}`);
      expect(typeof body.title, story_id).toBe("string");
      expect(body.title.length, story_id).toBeGreaterThan(0);
    }
  });

  it("expands a multi-outlet story with every Story-detail field", async () => {
    const { status, body, headers } = await story(`/stories/${baltimore}?limit=100`);
    expect(status).toBe(200);
    expect(headers.get("x-credits-charged")).toBe("2");
    expect(body.credits_charged).toBe(2);
    expect(body.story_id).toBe(baltimore);
    expect(body.story_id).toMatch(/^\d{14}-/);
    // The Baltimore block-party shooting ran at over a dozen outlets in this one batch.
    expect(body.count).toBeGreaterThanOrEqual(12);
    expect(body.outlets).toBe(new Set(body.articles.map((a) => a.source)).size);
    expect(body.sources.length).toBe(Math.min(20, body.outlets));
    expect(body.title?.toLowerCase()).toContain("baltimore");
    expect(body.articles.map((a) => a.id)).toContain(body.representative_article_id);
    expect(body.first_seen <= body.last_seen).toBe(true);
    expect(body.first_seen <= body.story_id.slice(0, 14)).toBe(true);
    expect(body.first_reported.published_at).toBe(body.first_seen);
    const firstSeen = body.sources_by_first_seen.map((s) => s.first_seen);
    expect([...firstSeen].sort()).toEqual(firstSeen);
    expect(body.sources_by_first_seen.length).toBe(body.outlets);
    expect(body.title_variants).toBeGreaterThan(1);
    expect(body.title_variants).toBeLessThanOrEqual(body.count);
    expect(body.languages).toEqual([{ value: "eng", count: body.count }]);
    expect(body.top_persons.length).toBeGreaterThan(0);
    expect(body.top_topics[0]?.count).toBeGreaterThan(1);
    for (const list of [body.publisher_countries, body.top_organizations, body.top_persons, body.top_topics]) {
      const counts = list.map((v) => v.count);
      expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    }
    const times = body.articles.map((a) => a.published_at);
    expect([...times].sort().reverse()).toEqual(times);
    for (const article of body.articles) expect(article.story_id).toBe(baltimore);
    expect(body.articles_returned).toBe(body.count);
    expect(body.articles_truncated).toBe(false);
    expect(body).toMatchObject({ partial: false, coverage: "complete", from_clamped: false, history_days: null });
    expect(body.attribution).toContain("GDELT");
  });

  it("caps only the listed articles with limit", async () => {
    const all = (await story(`/stories/${baltimore}?limit=100`)).body;
    const two = (await story(`/stories/${baltimore}?limit=2`)).body;
    expect(two.articles).toHaveLength(2);
    expect(two.articles_returned).toBe(2);
    expect(two.articles_truncated).toBe(true);
    expect(two.count).toBe(all.count);
    expect(two.outlets).toBe(all.outlets);
    expect(two.articles.map((a) => a.id)).toEqual(all.articles.slice(0, 2).map((a) => a.id));
    expect((await story(`/stories/${baltimore}`)).body.articles_returned).toBe(Math.min(20, all.count));
  });

  it("agrees with /search?story_id=, which pages and facets the members", async () => {
    const detail = (await story(`/stories/${baltimore}?limit=100`)).body;
    const members = await json<{ total: number; results: Array<{ id: string }>; facets: { source: { values: unknown[] } } }>(
      await server.get(`/search?story_id=${baltimore}&limit=100&facets=source&facet_limit=100`),
    );
    expect(members.total).toBe(detail.count);
    expect(new Set(members.results.map((r) => r.id))).toEqual(new Set(detail.articles.map((a) => a.id)));
    expect(members.facets.source.values).toHaveLength(detail.outlets);
  });

  it("expands an unclustered article to a story of one", async () => {
    // A 2016 record: no headline, so it joins no story.
    const { status, body } = await story("/stories/20160101020000-1");
    expect(status).toBe(200);
    expect(body).toMatchObject({ story_id: "20160101020000-1", count: 1, outlets: 1, articles_returned: 1 });
    expect(body.first_seen).toBe(body.last_seen);
  });

  it("answers the story of a member given by its article id", async () => {
    const detail = (await story(`/stories/${baltimore}?limit=100`)).body;
    const member = detail.articles.find((a) => a.id !== baltimore) as { id: string };
    const viaMember = (await story(`/stories/${member.id}`)).body;
    expect(viaMember.story_id).toBe(baltimore);
    expect(viaMember.count).toBe(detail.count);
  });

  it("answers 404 for a story no index holds, charged the minimum, and refuses a bad limit", async () => {
    for (const id of ["20230702153000-999999", "20991231000000-1", "not-a-story"]) {
      const { status, body, headers } = await story(`/stories/${id}`);
      expect(status).toBe(404);
      expect(body.code).toBe("not_found");
      expect(headers.get("x-credits-charged")).toBe("2");
    }
    const bad = await story(`/stories/${baltimore}?limit=101`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_parameter");
    expect((await story(`/stories/${baltimore}?offset=5`)).body.code).toBe("unknown_parameter");
  });
});

describe("a damaged monthly index under a story", () => {
  it("is 503 upstream_unavailable, not 404", async () => {
    const damaged = await startTestServer({ files: [SAMPLE_FILES.batch2023] });
    try {
      await damageMonthlyIndex(damaged, "202307");
      const response = await damaged.get("/stories/20230702153000-116");
      expect(response.status).toBe(503);
      const body = await json<{ code: string; detail: string }>(response);
      expect(body.code).toBe("upstream_unavailable");
      expect(body.detail).toContain("not evidence");
      expect(response.headers.get("x-credits-charged")).toBe("0");
    } finally {
      await damaged.close();
    }
  });
});

describe("clustering at ingest", () => {
  // Three ingests of their own: the timeout is a hang guard on busy cores (the scaled shape writes them to its node).
  it("gives the same stories whatever order the files come in, and again on a second ingest", { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "newsindex-halves-"));
    const lines = gunzipSync(readFileSync(SAMPLE_FILES.batch2023)).toString("utf8").trimEnd().split("\n");
    const first = join(dir, "first.gkg.csv");
    const second = join(dir, "second.gkg.csv");
    writeFileSync(first, lines.filter((_, i) => i % 2 === 0).join("\n"));
    writeFileSync(second, lines.filter((_, i) => i % 2 === 1).join("\n"));
    const forward = await startTestServer({ files: [first, second] });
    const backward = await startTestServer({ files: [second, first, first] });
    try {
      const storiesOf = async (s: TestServer): Promise<Map<string, string>> => {
        const out = new Map<string, string>();
        for (let offset = 0; offset < lines.length; offset += 100) {
          const page = await json<{ results: Array<{ id: string; story_id: string }> }>(
            await s.get(`/search?limit=100&offset=${offset}&view=compact`),
          );
          for (const r of page.results) out.set(r.id, r.story_id);
        }
        return out;
      };
      const a = await storiesOf(forward);
      const b = await storiesOf(backward);
      expect(a.size).toBe(lines.length);
      expect(b).toEqual(a);
      expect(new Set(a.values()).size).toBeLessThan(a.size - 100);
      expect(backward.ingest.unchanged).toBe(Math.ceil(lines.length / 2));
    } finally {
      await forward.close();
      await backward.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
