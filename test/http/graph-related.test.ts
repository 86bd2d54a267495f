import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CoMentions, names } from "../support/graph-brute-force.js";
import { expectError } from "../support/expect-error.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { cutWindowResolutionCredits } from "../support/test-shape.js";

// GET /graph/related over HTTP on the real samples (five files, five monthly
// indexes), every count checked against a brute-force count over the parsed
// sample (test/support/graph-brute-force.ts), and every credit against the
// index queries the call issues:
//
//   person:joe biden        34 articles, in 2020-02, 2020-03 and 2023-07
//   person:brandon scott    22 articles; 18 of them name person:richard worley (19)

interface Edge {
  entity_id: string;
  type: string;
  label: string;
  aliases: string[];
  co_mentions: number;
  share: number;
  evidence: Array<{ id: string; published_at: string | null }>;
  first_seen?: string;
  last_seen?: string;
  sources?: number;
  stories?: number;
  approximate: boolean;
}

interface Body {
  seed: { entity_id: string; type: string; aliases_used: string[]; articles?: number };
  related: Edge[];
  note: string;
  indexed_through: string | null;
  entity_resolution_version: string;
  credits_charged: number;
  partial: boolean;
  coverage: string;
  history_days: number | null;
  from_clamped: boolean;
  attribution: string;
}

const FILES = Object.values(SAMPLE_FILES);
let server: TestServer;
let sample: CoMentions;

beforeAll(async () => {
  [server, sample] = await Promise.all([startTestServer({ files: FILES, plans: ["free"] }), CoMentions.of(FILES)]);
});

afterAll(async () => {
  await server.close();
});

async function related(
  query: string,
  key?: string,
): Promise<{ body: Body; charged: number; estimate: { min: number; max: number } }> {
  const response = await server.get(`/graph/related?${query}`, key);
  expect(response.status, query).toBe(200);
  const body = await json<Body>(response);
  const preview = await json<{ credits: { min: number; max: number } }>(
    await server.get(`/graph/related?${query}&estimate=true`, key),
  );
  expect(Number(response.headers.get("x-credits-charged"))).toBe(body.credits_charged);
  return { body, charged: body.credits_charged, estimate: preview.credits };
}

const id = (name: string) => encodeURIComponent(name);

describe("GET /graph/related", () => {
  it("counts the seed's articles and each edge's co-mentions as a brute-force count does; evidence makes them exact", async () => {
    const { body } = await related(`entity_id=${id("person:joe biden")}&limit=30&evidence=3`);
    expect(body.seed).toEqual({ entity_id: "person:joe biden", type: "person", aliases_used: ["joe biden"], articles: 34 });
    expect(sample.count(["person:joe biden"])).toBe(34);
    expect(body.related).toHaveLength(30);
    for (const edge of body.related) {
      const truth = sample.count(["person:joe biden", edge.entity_id]);
      expect(truth, edge.entity_id).toBeGreaterThan(0);
      if (edge.approximate) expect(edge.co_mentions, edge.entity_id).toBeGreaterThanOrEqual(truth);
      else expect(edge.co_mentions, edge.entity_id).toBe(truth);
      expect(edge.share).toBe(Math.round((edge.co_mentions / 34) * 1000) / 1000);
      expect(edge.entity_id).not.toBe("person:joe biden");
    }
    // Ranked together across types, strongest first; three edges with evidence.
    const counts = body.related.map((e) => e.co_mentions);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(new Set(body.related.map((e) => e.type)).size).toBeGreaterThan(1);
    expect(body.related.filter((e) => e.evidence.length > 0)).toHaveLength(3);
  });

  it("gives the strongest edges the newest shared articles, with first/last seen, sources and stories", async () => {
    const { body } = await related(`entity_id=${id("person:joe biden")}&types=person,organization&evidence=2`);
    const withEvidence = body.related.filter((e) => !e.approximate);
    expect(withEvidence.map((e) => e.entity_id)).toEqual(body.related.slice(0, 2).map((e) => e.entity_id));
    for (const edge of withEvidence) {
      const shared = sample.naming(["person:joe biden", edge.entity_id]);
      expect(edge.evidence).toHaveLength(Math.min(2, shared.length));
      for (const article of edge.evidence) {
        const full = sample.byId(article.id);
        expect(names(full, "person:joe biden") && names(full, edge.entity_id)).toBe(true);
      }
      const stamps = shared.map((a) => a.published_at ?? "").sort();
      expect(edge.evidence[0]?.published_at).toBe(stamps[stamps.length - 1]);
      expect(edge.first_seen).toBe(stamps[0]);
      expect(edge.last_seen).toBe(stamps[stamps.length - 1]);
      expect(edge.sources).toBeLessThanOrEqual(new Set(shared.map((a) => a.source)).size * 3);
      expect(edge.sources).toBeGreaterThanOrEqual(new Set(shared.map((a) => a.source)).size);
      expect(edge.stories).toBeGreaterThan(0);
    }
    for (const edge of body.related.filter((e) => e.approximate)) {
      expect(edge.evidence).toEqual([]);
      expect(edge).not.toHaveProperty("first_seen");
      expect(edge).not.toHaveProperty("sources");
    }
  });

  it("sees a share from each end: the same co-mentions over each entity's own articles", async () => {
    const a = await related(`entity_id=${id("person:brandon scott")}&types=person&evidence=1`);
    const b = await related(`entity_id=${id("person:richard worley")}&types=person&evidence=1`);
    const fromScott = a.body.related.find((e) => e.entity_id === "person:richard worley");
    const fromWorley = b.body.related.find((e) => e.entity_id === "person:brandon scott");
    const truth = sample.count(["person:brandon scott", "person:richard worley"]);
    expect(truth).toBe(18);
    expect(fromScott?.co_mentions).toBe(truth);
    expect(fromWorley?.co_mentions).toBe(truth);
    expect(a.body.seed.articles).toBe(sample.count(["person:brandon scott"]));
    expect(b.body.seed.articles).toBe(sample.count(["person:richard worley"]));
    expect(fromScott?.share).toBe(Math.round((truth / 22) * 1000) / 1000);
    expect(fromWorley?.share).toBe(Math.round((truth / 19) * 1000) / 1000);
    expect(fromScott?.share).not.toBe(fromWorley?.share);
  });

  it("narrows the counts, not the id lookup, with language and the other narrowing filters", async () => {
    const { body } = await related(`entity_id=${id("person:joe biden")}&language=eng&types=organization&evidence=0`);
    const english = (a: { language: string | null }) => a.language === "eng";
    expect(body.seed.articles).toBe(sample.count(["person:joe biden"], english));
    for (const edge of body.related) {
      expect(edge.co_mentions).toBeGreaterThanOrEqual(sample.count(["person:joe biden", edge.entity_id], english));
    }
    const none = await related(`entity_id=${id("person:joe biden")}&language=fra&evidence=0`);
    expect(none.body.seed.aliases_used).toEqual(["joe biden"]);
    expect(none.body.seed.articles).toBe(0);
    expect(none.body.related).toEqual([]);
  });

  it("carries every graph field", async () => {
    const { body } = await related(`entity_id=${id("person:joe biden")}&limit=1&evidence=0`);
    expect(body.note).toMatch(/not ownership, partnership, causation or exposure/);
    expect(body.indexed_through).toBe("20230702153000");
    expect(body.entity_resolution_version).toBe("er-v1");
    expect(body).toMatchObject({ partial: false, coverage: "complete", history_days: null, from_clamped: false });
    expect(body.attribution).toMatch(/GDELT/);
    expect(body.related[0]?.evidence).toEqual([]);
  });
});

describe("GET /graph/related credits: one per index query", () => {
  it("charges 1 for indexed_through, 1 to resolve the id, 1 to count neighbours and 2 per edge with evidence", async () => {
    const counts = await related(`entity_id=${id("person:joe biden")}&evidence=0`);
    expect(counts.charged).toBe(3);
    expect(counts.estimate).toEqual({ min: 2, max: 4 });
    const three = await related(`entity_id=${id("person:joe biden")}&evidence=3`);
    expect(three.charged).toBe(3 + 2 * 3);
    expect(three.estimate).toEqual({ min: 2, max: 10 });
    // A window cutting into a monthly index checks each spelling against it in the embedded shape: 2 for the id.
    const windowed = await related(`entity_id=${id("person:joe biden")}&evidence=1&from=2023-07-02&to=2023-07-02`);
    expect(windowed.charged).toBe(1 + cutWindowResolutionCredits() + 1 + 2);
    expect(windowed.body.seed.articles).toBe(
      sample.count(["person:joe biden"], (a) => (a.published_at ?? "").startsWith("20230702")),
    );
  });

  it("skips the neighbour count when the id has no spelling in the window: 2 credits", async () => {
    const { body, charged } = await related(`entity_id=${id("organization:no such organization anywhere")}`);
    expect(body.seed.aliases_used).toEqual([]);
    expect(body.seed).not.toHaveProperty("articles");
    expect(body.related).toEqual([]);
    expect(charged).toBe(2);
  });

  it("cuts evidence at 16 queries: the edges it cannot afford keep their counts and go without", async () => {
    const { body, charged, estimate } = await related(`entity_id=${id("person:joe biden")}&evidence=10&limit=20`);
    expect(estimate).toEqual({ min: 2, max: 16 });
    // 3 queries, then 2 per edge: 6 edges of the 10 asked for.
    expect(charged).toBe(15);
    const top10 = body.related.slice(0, 10);
    const withEvidence = top10.filter((e) => e.evidence.length > 0);
    expect(withEvidence).toHaveLength(6);
    for (const edge of top10.filter((e) => e.evidence.length === 0)) {
      expect(edge.co_mentions).toBeGreaterThanOrEqual(sample.count(["person:joe biden", edge.entity_id]));
      expect(edge.approximate).toBe(true);
    }
    for (const edge of withEvidence) {
      expect(edge.co_mentions).toBe(sample.count(["person:joe biden", edge.entity_id]));
      expect(edge.evidence.length).toBeLessThanOrEqual(10);
    }
  });

  it("refuses at no cost a call whose worst case exceeds max_credits", async () => {
    const response = await server.get(`/graph/related?entity_id=${id("person:joe biden")}&evidence=5&max_credits=10`);
    const error = await expectError(response, 400, "credit_budget_exceeded");
    expect(error.credits).toEqual({ min: 2, max: 14 });
    expect(response.headers.get("x-credits-charged")).toBe("0");
  });
});

describe("GET /graph/related refusals", () => {
  it.each([
    ["entity_id=person:joe%20biden,person:donald%20trump", "invalid_parameter", /exactly one/],
    ["entity_id=person:joe%20biden&entity_id=person:donald%20trump", "invalid_parameter", /give it once/],
    ["entity_id=biden", "invalid_parameter", /entity id/],
    ["entity_id=person:joe%20biden&types=persons", "invalid_parameter", /Did you mean 'person'/],
    ["entity_id=person:joe%20biden&types=author", "invalid_parameter", /not an edge type/],
    ["entity_id=person:joe%20biden&limit=51", "invalid_parameter", /limit/],
    ["entity_id=person:joe%20biden&evidence=11", "invalid_parameter", /evidence/],
    ["entity_id=person:joe%20biden&entity=x", "unknown_parameter", /entity_id/],
    ["types=person", "invalid_parameter", /entity_id/],
  ])("%s is %s before any work", async (query, code, detail) => {
    const response = await server.get(`/graph/related?${query}`);
    const error = await expectError(response, 400, code);
    expect(error.detail).toMatch(detail);
    expect(response.headers.get("x-credits-charged")).toBe("0");
  });

  it("moves an old from forward to the plan's reach and says so", async () => {
    const { body } = await related(`entity_id=${id("person:joe biden")}&from=2020-01-01`, server.keys.free);
    expect(body.from_clamped).toBe(true);
    expect(body.history_days).toBeGreaterThan(0);
    expect(body.seed.aliases_used).toEqual([]);
  });
});
