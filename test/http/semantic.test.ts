import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { damageMonthlyIndex } from "../support/damage.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// Semantic and hybrid ranking, /stories with modes and /similar over a real
// server, on the real sample embedded with the shipped model. The embedding
// stage is run here by hand, month by month, to see each state a user can
// meet: nothing embedded, one month embedded, everything embedded.

type Body = Record<string, unknown>;
type Hit = {
  id: string;
  title: string | null;
  story_id: string | null;
  language: string | null;
  source: string | null;
  score: number;
  published_at: string;
};

let server: TestServer;
/** The Baltimore block-party shooting, as keyword search finds it. */
let baltimoreStory: string;
const PARAPHRASE = "gunfire at a neighbourhood celebration in Maryland";

async function get(path: string): Promise<{ status: number; body: Body; credits: string | null }> {
  const response = await server.get(path);
  return { status: response.status, body: await json(response), credits: response.headers.get("x-credits-charged") };
}

async function embedMonth(month: string): Promise<void> {
  const stage = server.container.embeddingStage();
  for (;;) {
    const step = await stage.embedNext(month, 500);
    if (step.embedded === 0) return;
  }
}

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016] });
  const found = await get("/search?q=%22block+party%22+baltimore&limit=1");
  baltimoreStory = (found.body.results as Hit[])[0]?.story_id as string;
});

afterAll(async () => {
  await server?.close();
});

describe("before anything is embedded", () => {
  it("keyword search already finds the articles, semantic answers partial with field_unavailable", async () => {
    const keyword = await get("/search?q=baltimore+shooting");
    expect(keyword.body.total).toBeGreaterThan(0);
    const semantic = await get(`/search?q=${encodeURIComponent(PARAPHRASE)}&mode=semantic`);
    expect(semantic.status).toBe(200);
    expect(semantic.body).toMatchObject({
      partial: true,
      coverage: "field_unavailable",
      total_relation: "approximate",
      results: [],
    });
  });

  it("/similar embeds a seed that is not embedded yet on the spot", async () => {
    const seed = (await get("/search?q=%22block+party%22+baltimore&limit=1")).body.results as Hit[];
    const similar = await get(`/similar/${seed[0]?.id}`);
    expect(similar.status).toBe(200);
    // No neighbour is embedded yet: an honest partial answer, not an empty complete one.
    expect(similar.body).toMatchObject({ mode: "similar", partial: true, coverage: "field_unavailable" });
  });
});

describe("one month embedded, one not", () => {
  beforeAll(async () => {
    await embedMonth("202307");
  });

  it("ranks the embedded month and says the rest is not covered", async () => {
    const { body } = await get(`/search?q=${encodeURIComponent(PARAPHRASE)}&mode=semantic&limit=5`);
    expect((body.results as Hit[]).length).toBe(5);
    expect(body).toMatchObject({ partial: true, coverage: "field_unavailable" });
  });

  it("is complete when the window leaves the unembedded month out", async () => {
    const { body } = await get(`/search?q=${encodeURIComponent(PARAPHRASE)}&mode=semantic&from=2023-07-01&limit=5`);
    expect(body).toMatchObject({ partial: false, coverage: "complete" });
  });
});

describe("everything embedded", () => {
  beforeAll(async () => {
    await embedMonth("201601");
  });

  it("semantic finds a paraphrase with no word in common, where keyword finds nothing", async () => {
    const keyword = await get(`/search?q=${encodeURIComponent(PARAPHRASE)}`);
    expect(keyword.body.total).toBe(0);
    const { body, credits } = await get(`/search?q=${encodeURIComponent(PARAPHRASE)}&mode=semantic&limit=5`);
    expect(credits).toBe("2");
    expect(body).toMatchObject({
      mode: "semantic",
      total_relation: "approximate",
      partial: false,
      coverage: "complete",
      credits_charged: 2,
    });
    const hits = body.results as Hit[];
    expect(hits.slice(0, 3).some((h) => h.story_id === baltimoreStory)).toBe(true);
    const scores = hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("hybrid fuses both rankings and costs 3 credits", async () => {
    const { body, credits } = await get("/search?q=baltimore+shooting&mode=hybrid&limit=5");
    expect(credits).toBe("3");
    expect(body).toMatchObject({ mode: "hybrid", total_relation: "approximate", credits_charged: 3 });
    const hits = body.results as Hit[];
    expect(hits[0]?.story_id).toBe(baltimoreStory);
    // A paraphrase: hybrid still finds it through its semantic half.
    const paraphrase = await get(`/search?q=${encodeURIComponent(PARAPHRASE)}&mode=hybrid&limit=5`);
    expect((paraphrase.body.results as Hit[]).slice(0, 3).some((h) => h.story_id === baltimoreStory)).toBe(true);
  });

  it.each(["semantic", "hybrid"])("%s applies every filter exactly", async (mode) => {
    // A single-valued and a multi-valued field, each on its most common value in the sample.
    for (const field of ["source", "country"] as const) {
      const facets = (await get(`/search?facets=${field}&limit=1`)).body.facets as Record<
        string,
        { values: Array<{ value: string }> }
      >;
      const value = facets[field]?.values[0]?.value as string;
      const filtered = await get(`/search?q=${encodeURIComponent("political news")}&mode=${mode}&${field}=${value}&limit=100`);
      const hits = filtered.body.results as Array<Hit & { countries: string[] }>;
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => (field === "source" ? h.source === value : h.countries.includes(value)))).toBe(true);
      // Exact: every matching article is in the candidate set, and nothing else.
      const browse = await get(`/search?${field}=${value}&limit=1`);
      expect(Math.min(filtered.body.total as number, 1000)).toBe(Math.min(browse.body.total as number, 1000));
    }

    const window = await get(`/search?q=${encodeURIComponent(PARAPHRASE)}&mode=${mode}&to=2016-01-31&limit=100`);
    expect((window.body.results as Hit[]).every((h) => h.published_at <= "20160131235959")).toBe(true);
    const story = await get(`/search?q=${encodeURIComponent(PARAPHRASE)}&mode=${mode}&story_id=${baltimoreStory}&limit=100`);
    const members = await get(`/search?story_id=${baltimoreStory}&limit=1`);
    expect(story.body.total).toBe(members.body.total);
    expect((story.body.results as Hit[]).every((h) => h.story_id === baltimoreStory)).toBe(true);
  });

  it("counts facets over the candidate set, marked approximate", async () => {
    const { body } = await get(`/search?q=${encodeURIComponent(PARAPHRASE)}&mode=semantic&facets=language,source&limit=1`);
    const facets = body.facets as Record<
      string,
      { values: Array<{ value: string; count: number }>; approximate: boolean; sum_other_doc_count: number }
    >;
    expect(facets.language?.approximate).toBe(true);
    const languages = facets.language as { values: Array<{ count: number }>; sum_other_doc_count: number };
    // Each candidate has one language: the counts add up to the candidate set.
    expect(languages.values.reduce((n, v) => n + v.count, 0) + languages.sum_other_doc_count).toBe(body.total);
  });

  it("pages the candidate set by offset, disjointly, and stops at its end", async () => {
    const q = `/search?q=${encodeURIComponent(PARAPHRASE)}&mode=semantic&limit=10`;
    const first = (await get(q)).body;
    const second = (await get(`${q}&offset=10`)).body;
    const ids = new Set((first.results as Hit[]).map((h) => h.id));
    expect((second.results as Hit[]).some((h) => ids.has(h.id))).toBe(false);
    const past = (await get(`${q}&offset=${first.total as number}`)).body;
    expect(past).toMatchObject({ results: [], has_more: false });
  });

  it("refuses a semantic mode without q before any work, free", async () => {
    const { status, body, credits } = await get("/search?mode=semantic");
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: "invalid_parameter" });
    expect(String(body.detail)).toContain("'q'");
    expect(credits).toBe("0");
    expect((await get("/search?q=x&mode=vector")).status).toBe(400);
  });

  it("/stories ranks stories by meaning, at the mode's price", async () => {
    const { body, credits } = await get(`/stories?q=${encodeURIComponent(PARAPHRASE)}&mode=semantic&limit=5`);
    expect(credits).toBe("2");
    expect(body).toMatchObject({ total_relation: "approximate", credits_charged: 2 });
    const stories = body.stories as Array<{ story_id: string; count: number }>;
    expect(stories.slice(0, 3).map((s) => s.story_id)).toContain(baltimoreStory);
    expect(new Set(stories.map((s) => s.story_id)).size).toBe(stories.length);
    const hybrid = await get(`/stories?q=${encodeURIComponent("baltimore shooting")}&mode=hybrid&limit=3`);
    expect(hybrid.credits).toBe("3");
    expect((hybrid.body.stories as Array<{ story_id: string }>)[0]?.story_id).toBe(baltimoreStory);
    const bySize = await get(`/stories?q=${encodeURIComponent(PARAPHRASE)}&mode=semantic&sort=count&limit=5`);
    const counts = (bySize.body.stories as Array<{ count: number }>).map((s) => s.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it("/similar: nearest stories, one article each, never the seed or its story", async () => {
    const seed = ((await get(`/search?story_id=${baltimoreStory}&limit=1`)).body.results as Hit[])[0] as Hit;
    const { status, body, credits } = await get(`/similar/${seed.id}?limit=20`);
    expect(status).toBe(200);
    expect(credits).toBe("2");
    expect(body).toMatchObject({ mode: "similar", total_relation: "approximate", credits_charged: 2, partial: false });
    const hits = body.results as Hit[];
    expect(hits.length).toBe(20);
    expect(hits.some((h) => h.id === seed.id || h.story_id === baltimoreStory)).toBe(false);
    expect(new Set(hits.map((h) => h.story_id)).size).toBe(hits.length);
    // The nearest is another shooting.
    expect(hits[0]?.title?.toLowerCase()).toMatch(/shoot|gun|kill/);
    const compact = await get(`/similar/${seed.id}?limit=2&view=compact`);
    expect(Object.keys((compact.body.results as Hit[])[0] ?? {})).not.toContain("persons");
  });

  it("/similar of an unknown seed is 404", async () => {
    const { status, body } = await get("/similar/20230702153000-999999");
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: "not_found" });
  });
});

describe("/similar when the seed's monthly index cannot be read", () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ files: [SAMPLE_FILES.batch2016], embed: true });
  });
  afterAll(async () => {
    await small?.close();
  });

  it("is 503 upstream_unavailable, not an empty list", async () => {
    const seed = (await json<{ results: Hit[] }>(await small.get("/search?limit=1"))).results[0] as Hit;
    expect((await small.get(`/similar/${seed.id}`)).status).toBe(200);
    await damageMonthlyIndex(small, "201601");
    const response = await small.get(`/similar/${seed.id}`);
    expect(response.status).toBe(503);
    expect(await json(response)).toMatchObject({ code: "upstream_unavailable" });
  });
});
