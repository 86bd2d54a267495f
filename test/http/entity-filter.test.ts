import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-error.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { cutWindowResolutionCredits } from "../support/test-shape.js";

// `entity_id` on /search, /top-headlines and /stories over HTTP, on groups of
// real sample spellings read by hand (test/support/gkg-fixtures.ts has none of
// them: they come straight from the bundled GKG files):
//
//   person:jill biden        "lady jill biden" in 6 articles of 2023-07-02, "jill biden" in 2 (-385 at 14:40, -701 at 15:30)
//   organization:kyocera     "kyocera corporation", "kyocera", "kyocera co", all in the one article 20230702153000-571
//   organization:chevron     "chevron" (2015-02, 20150218224500-T11) and "chevron corp" (2020-03, 20200318104500-0)
//   person:hunter biden      5 articles, two of them (-7, -564) also naming joe biden

interface Body {
  results: Array<{ id: string; persons: string[]; organizations: string[] }>;
  stories?: Array<{ story_id: string }>;
  total: number;
  resolved?: Array<{ entity_id: string; aliases_used: string[] }>;
  credits_charged: number;
  partial: boolean;
  coverage: string;
  [field: string]: unknown;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.spark, SAMPLE_FILES.translingual, SAMPLE_FILES.bigquery],
  });
});

afterAll(async () => {
  await server.close();
});

async function get(path: string): Promise<{ body: Body; headers: Headers }> {
  const response = await server.get(path);
  expect(response.status, path).toBe(200);
  return { body: await json<Body>(response), headers: response.headers };
}

const ids = (body: Body): string[] => body.results.map((r) => r.id).sort();

describe("entity_id on /search", () => {
  it("matches every spelling of the group and reports them in resolved", async () => {
    const { body } = await get(`/search?entity_id=${encodeURIComponent("person:jill biden")}&limit=100`);
    expect(body.total).toBe(8);
    expect(body.resolved).toEqual([{ entity_id: "person:jill biden", aliases_used: ["lady jill biden", "jill biden"] }]);
    for (const r of body.results) expect(r.persons.some((p) => p === "jill biden" || p === "lady jill biden")).toBe(true);
    expect(Object.keys(body).indexOf("resolved")).toBeLessThan(Object.keys(body).indexOf("history_days"));
  });

  it("counts an article carrying several spellings once", async () => {
    const { body } = await get(`/search?entity_id=organization:Kyocera+Corp`);
    expect(body.total).toBe(1);
    expect(ids(body)).toEqual(["20230702153000-571"]);
    expect(body.resolved?.[0]?.entity_id).toBe("organization:kyocera");
    expect([...(body.resolved?.[0]?.aliases_used ?? [])].sort()).toEqual(["kyocera", "kyocera co", "kyocera corporation"]);
  });

  it("spans monthly indexes, and resolves within the window only", async () => {
    const all = await get(`/search?entity_id=organization:chevron`);
    expect(ids(all.body)).toEqual(["20150218224500-T11", "20200318104500-0"]);
    expect([...(all.body.resolved?.[0]?.aliases_used ?? [])].sort()).toEqual(["chevron", "chevron corp"]);

    const recent = await get(`/search?entity_id=organization:chevron&from=2020-01-01`);
    expect(ids(recent.body)).toEqual(["20200318104500-0"]);
    expect(recent.body.resolved).toEqual([{ entity_id: "organization:chevron", aliases_used: ["chevron corp"] }]);

    const within = await get(
      `/search?entity_id=${encodeURIComponent("person:jill biden")}&from=20230702144000&to=20230702152959`,
    );
    expect(ids(within.body)).toEqual(["20230702153000-385"]);
    expect(within.body.resolved?.[0]?.aliases_used).toEqual(["jill biden"]);
  });

  it("ANDs several ids, comma-separated or repeated", async () => {
    const comma = await get(`/search?entity_id=${encodeURIComponent("person:hunter biden,person:joe biden")}`);
    expect(ids(comma.body)).toEqual(["20230702153000-564", "20230702153000-7"]);
    const repeated = await get(`/search?entity_id=person:hunter+biden&entity_id=person:joe+biden`);
    expect(ids(repeated.body)).toEqual(ids(comma.body));
    expect(repeated.body.resolved?.map((r) => r.entity_id)).toEqual(["person:hunter biden", "person:joe biden"]);
  });

  it("with another filter and a keyword query", async () => {
    const { body } = await get(
      `/search?q=biden&entity_id=${encodeURIComponent("person:jill biden")}&source=${encodeURIComponent("nypost.com")}`,
    );
    for (const r of body.results) expect(r.persons.join(",")).toMatch(/jill biden/);
    const unfiltered = await get(`/search?entity_id=${encodeURIComponent("person:jill biden")}&source=nypost.com`);
    expect(body.total).toBeLessThanOrEqual(unfiltered.body.total);
  });

  it("an id with no spelling in the window matches nothing, with empty aliases_used", async () => {
    const { body } = await get(`/search?entity_id=organization:chevron&from=2023-01-01`);
    expect(body.total).toBe(0);
    expect(body.resolved).toEqual([{ entity_id: "organization:chevron", aliases_used: [] }]);
    expect(body.coverage).toBe("complete");
    const unknown = await get(`/search?entity_id=person:nobody+at+all`);
    expect(unknown.body.total).toBe(0);
  });

  it("charges 1 credit per id resolved from the keys alone, 2 when the window cuts into a monthly index", async () => {
    const plain = await get(`/search?entity_id=person:hunter+biden`);
    expect(plain.body.credits_charged).toBe(2);
    expect(plain.headers.get("x-credits-charged")).toBe("2");
    const two = await get(`/search?entity_id=person:hunter+biden,person:joe+biden`);
    expect(two.body.credits_charged).toBe(3);
    const cut = await get(`/search?entity_id=person:hunter+biden&from=20230702120000`);
    expect(cut.body.credits_charged).toBe(1 + cutWindowResolutionCredits());

    const estimate = await get(`/search?entity_id=person:hunter+biden,person:joe+biden&estimate=true`);
    expect(estimate.body.credits).toEqual({ min: 3, max: 5 });
    const refused = await server.get(`/search?entity_id=person:hunter+biden,person:joe+biden&max_credits=4`);
    await expectError(refused, 400, "credit_budget_exceeded");
  });

  it("refuses a malformed id or more than five, before any work and free", async () => {
    for (const bad of ["joe biden", "people:joe biden", "person:", "person:...", "person:a,"]) {
      const response = await server.get(`/search?entity_id=${encodeURIComponent(bad)}`);
      const error = await expectError(response, 400, "invalid_parameter");
      expect(error.detail).toMatch(/entity_id/);
      expect(response.headers.get("x-credits-charged")).toBe("0");
    }
    const six = ["a", "b", "c", "d", "e", "f"].map((n) => `person:${n}`).join(",");
    const error = await expectError(await server.get(`/search?entity_id=${six}`), 400, "invalid_parameter");
    expect(error.detail).toMatch(/at most 5/);
    const repeatedSix = ["a", "b", "c", "d", "e", "f"].map((n) => `entity_id=person:${n}`).join("&");
    await expectError(await server.get(`/search?${repeatedSix}`), 400, "invalid_parameter");
  });
});

describe("entity_id on /top-headlines and /stories", () => {
  it("/top-headlines filters newest first and reports resolved", async () => {
    const { body } = await get(`/top-headlines?entity_id=${encodeURIComponent("person:jill biden")}&limit=3`);
    expect(body.total).toBe(8);
    expect(body.results.length).toBe(3);
    expect(body.resolved?.[0]?.aliases_used).toEqual(["lady jill biden", "jill biden"]);
    const page = await get(`/top-headlines?entity_id=${encodeURIComponent("person:jill biden")}&cursor=start&limit=5`);
    expect(page.body.results.length).toBe(5);
    expect(typeof page.body.next_cursor).toBe("string");
  });

  it("/stories lists the stories of the matching articles and reports resolved", async () => {
    const articles = await get(`/search?entity_id=${encodeURIComponent("person:hunter biden")}&limit=100`);
    const stories = await get(`/stories?entity_id=${encodeURIComponent("person:hunter biden")}&limit=100`);
    const storyIds = new Set(
      await Promise.all(articles.body.results.map(async (r) => (await get(`/doc/${r.id}`)).body.story_id as string)),
    );
    expect(stories.body.stories?.map((s) => s.story_id).sort()).toEqual([...storyIds].sort());
    expect(stories.body.resolved).toEqual([{ entity_id: "person:hunter biden", aliases_used: ["hunter biden"] }]);
    expect(stories.body.credits_charged).toBe(2);
  });
});
