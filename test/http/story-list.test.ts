import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoriesResponse, StoryItem } from "../../src/schemas/responses.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// GET /stories over HTTP, on the real 2023-07-02 15:30 batch (and a 2016 one),
// clustered at ingest. Expected figures come from /search and /stories/{id}
// on the same server, never from fixed ids.

type Body = StoriesResponse & { credits_charged: number; code?: string; detail?: string };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016] });
});

afterAll(async () => {
  await server.close();
});

async function stories(query: string): Promise<{ status: number; body: Body; headers: Headers }> {
  const response = await server.get(`/stories?${query}`);
  return { status: response.status, body: await json<Body>(response), headers: response.headers };
}

/** Distinct story ids among every article /search matches for `query`. */
async function storyIdsOfSearch(query: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let offset = 0; ; offset += 100) {
    const page = await json<{ results: Array<{ story_id: string }>; has_more: boolean }>(
      await server.get(`/search?${query}&limit=100&offset=${offset}&view=compact`),
    );
    for (const r of page.results) ids.add(r.story_id);
    if (!page.has_more) return ids;
  }
}

/** Every story of a /stories query, paging by offset until has_more is false. */
async function allStories(query: string): Promise<StoryItem[]> {
  const items: StoryItem[] = [];
  for (let offset = 0; ; offset += 100) {
    const { status, body } = await stories(`${query}&limit=100&offset=${offset}`);
    expect(status).toBe(200);
    items.push(...body.stories);
    if (!body.has_more) return items;
  }
}

describe("GET /stories", () => {
  it("collapses the matching articles into their stories: total counts stories, not articles", async () => {
    const expected = await storyIdsOfSearch("q=baltimore");
    const { status, body, headers } = await stories("q=baltimore&limit=100");
    expect(status).toBe(200);
    expect(body.total).toBe(expected.size);
    expect(new Set(body.stories.map((s) => s.story_id))).toEqual(expected);
    const articles = await json<{ total: number }>(await server.get("/search?q=baltimore&limit=1"));
    expect(body.total).toBeLessThan(articles.total);
    expect(headers.get("x-credits-charged")).toBe("1");
    expect(body).toMatchObject({
      total_relation: "exact",
      offset: 0,
      limit: 100,
      has_more: false,
      partial: false,
      coverage: "complete",
      from_clamped: false,
      history_days: null,
      credits_charged: 1,
    });
    expect(body.attribution).toContain("GDELT");
    expect(body).not.toHaveProperty("facets");
    expect(body).not.toHaveProperty("next_cursor");
  });

  it("gives each story its representative title and url and the whole story's counts", async () => {
    const { body } = await stories("q=%22baltimore+block+party%22&limit=1");
    const top = body.stories[0] as StoryItem;
    expect(Object.keys(top).sort()).toEqual(["count", "outlets", "published_at", "sources", "story_id", "title", "url"]);
    const detail = await json<{
      title: string;
      url: string;
      count: number;
      outlets: number;
      sources: string[];
      representative_article_id: string;
    }>(await server.get(`/stories/${top.story_id}?limit=100`));
    // The Baltimore block-party shooting ran at over a dozen outlets in this one batch.
    expect(top.count).toBeGreaterThanOrEqual(12);
    expect(top).toMatchObject({ title: detail.title, url: detail.url, count: detail.count, outlets: detail.outlets });
    expect(top.sources).toEqual(detail.sources);
    expect(top.sources.length).toBe(Math.min(20, top.outlets));
    const representative = await json<{ published_at: string }>(await server.get(`/doc/${detail.representative_article_id}`));
    expect(top.published_at).toBe(representative.published_at);
    // count covers the whole story, not only the members the query matched.
    const narrow = await stories(`q=baltimore&source=thehill.com`);
    expect(narrow.body.stories.find((s) => s.story_id === top.story_id)?.count).toBe(top.count);
  });

  it("ranks by relevance with q and by the newest matching article without, by default", async () => {
    const ranked = (await stories("q=%22baltimore+block+party%22")).body;
    expect(ranked.stories[0]?.title?.toLowerCase()).toContain("baltimore");

    const browse = (await stories("limit=8")).body;
    const explicit = (await stories("limit=8&sort=recency")).body;
    expect(browse.stories.map((s) => s.story_id)).toEqual(explicit.stories.map((s) => s.story_id));
    const newest: string[] = [];
    for (const item of browse.stories) {
      const detail = await json<{ last_seen: string }>(await server.get(`/stories/${item.story_id}?limit=100`));
      newest.push(detail.last_seen);
    }
    expect([...newest].sort().reverse()).toEqual(newest);
  });

  it("sorts by count and by outlets, largest first", async () => {
    const byCount = (await stories("sort=count&limit=20")).body.stories;
    expect(byCount.map((s) => s.count)).toEqual([...byCount.map((s) => s.count)].sort((a, b) => b - a));
    expect(byCount[0]?.count).toBeGreaterThanOrEqual(12);
    const byOutlets = (await stories("sort=outlets&limit=20")).body.stories;
    expect(byOutlets.map((s) => s.outlets)).toEqual([...byOutlets.map((s) => s.outlets)].sort((a, b) => b - a));
    expect(byOutlets[0]?.outlets).toBeGreaterThan(byOutlets[19]?.outlets ?? 0);
  });

  it("applies every shared filter before collapsing", async () => {
    const expected = await storyIdsOfSearch("language=eng&source_type=web&from=2023-07-02");
    const listed = await allStories("language=eng&source_type=web&from=2023-07-02");
    expect(listed.length).toBe(expected.size);
    expect(new Set(listed.map((s) => s.story_id))).toEqual(expected);
    const person = await storyIdsOfSearch("person=brandon+scott");
    expect((await stories("person=brandon+scott&limit=100")).body.total).toBe(person.size);
    expect((await stories("story_id=nosuchstory")).body).toMatchObject({ total: 0, stories: [], has_more: false });
  });

  it("pages by offset without overlap, and prices offset at 1 credit per full 100 stories", async () => {
    const first = await stories("limit=100");
    const second = await stories("limit=100&offset=100");
    expect(first.body.has_more).toBe(true);
    const ids = new Set(first.body.stories.map((s) => s.story_id));
    for (const s of second.body.stories) expect(ids.has(s.story_id)).toBe(false);
    expect(second.headers.get("x-credits-charged")).toBe("2");
    expect((await stories("offset=250&limit=1")).headers.get("x-credits-charged")).toBe("3");
    const last = await stories("offset=1000&limit=1");
    expect(last.status).toBe(200);
    expect(last.body.stories).toEqual([]);
    expect(last.body.has_more).toBe(false);
  });

  it("refuses an offset above 1000, facets and cursor with the spec's 400, uncharged", async () => {
    const deep = await stories("offset=1001");
    expect(deep.status).toBe(400);
    expect(deep.body.code).toBe("invalid_parameter");
    expect(deep.body.detail).toContain("offset");
    expect(deep.body.detail).toContain("1000");
    expect(deep.headers.get("x-credits-charged")).toBe("0");
    for (const extra of ["facets=story_id", "cursor=start", "view=compact"]) {
      const refused = await stories(extra);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe("unknown_parameter");
    }
    const badSort = await stories("sort=size");
    expect(badSort.status).toBe(400);
    expect(badSort.body.code).toBe("invalid_parameter");
    expect(badSort.body.detail).toContain("recency");
  });

  it("answers an estimate at the price the call is charged", async () => {
    const estimate = await json<{ credits: { min: number; max: number } }>(
      await server.get("/stories?q=police&offset=200&estimate=true"),
    );
    expect(estimate.credits).toEqual({ min: 3, max: 3 });
    expect((await stories("q=police&offset=200")).headers.get("x-credits-charged")).toBe("3");
  });
});
