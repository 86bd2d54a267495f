import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import { expectError } from "../support/expect-error.js";
import { CoMentions, names } from "../support/graph-brute-force.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { cutWindowResolutionCredits } from "../support/test-shape.js";

// GET /graph/network and GET /graph/exposures over HTTP on the real samples,
// checked against a brute-force count over the parsed sample. joe biden is
// named in 2020 (the BigQuery extract and the Spark test file) and in the
// 2023-07-02 batch, so the two years make a comparison.

interface Edge {
  entity_id: string;
  type: string;
  co_mentions: number;
  share: number;
  evidence: Array<{ id: string }>;
  approximate: boolean;
}

interface Change {
  entity_id: string;
  co_mentions: number;
  share: number;
  previous_co_mentions: number;
  previous_share: number;
}

interface NetworkBody {
  seed: { entity_id: string; aliases_used: string[]; articles?: number };
  types: string[];
  neighbors: Record<string, Edge[]>;
  comparison?: {
    from: string;
    to: string;
    seed: { articles?: number };
    new: Change[];
    gone: Change[];
    grew: Change[];
    fell: Change[];
  };
  credits_charged: number;
  partial: boolean;
  note: string;
}

interface ExposuresBody {
  entities: Array<{ entity_id: string; aliases_used: string[] }>;
  shared: { articles: number; stories: number; sources: number; first_seen?: string; last_seen?: string; approximate: boolean };
  facets?: Record<string, { values: Array<{ value: string; count: number }> }>;
  signal_stats?: Record<string, { mean: number; articles: number }>;
  evidence: Array<{ id: string; published_at: string }>;
  credits_charged: number;
  indexed_through: string;
  entity_resolution_version: string;
  note: string;
}

const FILES = Object.values(SAMPLE_FILES);
let server: TestServer;
let sample: CoMentions;

beforeAll(async () => {
  [server, sample] = await Promise.all([startTestServer({ files: FILES }), CoMentions.of(FILES)]);
});

afterAll(async () => {
  await server.close();
});

async function get<T>(path: string): Promise<T> {
  const response = await server.get(path);
  expect(response.status, path).toBe(200);
  const body = await json<T & { credits_charged: number }>(response);
  expect(Number(response.headers.get("x-credits-charged"))).toBe(body.credits_charged);
  return body;
}

const BIDEN = encodeURIComponent("person:joe biden");
const in2020 = (a: ArticleDetail) => (a.published_at ?? "").startsWith("2020");
const in2023 = (a: ArticleDetail) => (a.published_at ?? "").startsWith("2023");

describe("GET /graph/network", () => {
  it("groups the neighbours by type, at most limit_per_type each, counted as a brute-force count does", async () => {
    const body = await get<NetworkBody>(`/graph/network?entity_id=${BIDEN}&types=person,organization,location&limit_per_type=5`);
    expect(Object.keys(body.neighbors)).toEqual(["person", "organization", "location"]);
    expect(body.seed.articles).toBe(34);
    for (const [type, edges] of Object.entries(body.neighbors)) {
      expect(edges.length).toBeLessThanOrEqual(5);
      expect(edges.length).toBeGreaterThan(0);
      const counts = edges.map((e) => e.co_mentions);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      for (const edge of edges) {
        expect(edge.type).toBe(type);
        expect(edge.co_mentions).toBeGreaterThanOrEqual(sample.count(["person:joe biden", edge.entity_id]));
        expect(edge.evidence).toEqual([]);
      }
      // The strongest of the type, by the brute-force count.
      const truth = [...sample.neighbours(["person:joe biden"], type as "person")].map((n) =>
        sample.count(["person:joe biden", n]),
      );
      expect(edges[0]?.co_mentions).toBe(Math.max(...truth));
    }
    // 1 + 1 + 1: no evidence by default.
    expect(body.credits_charged).toBe(3);
  });

  it("caps a type at 20 and gives evidence to the strongest across types when asked", async () => {
    const body = await get<NetworkBody>(`/graph/network?entity_id=${BIDEN}&limit_per_type=20&evidence=2`);
    for (const edges of Object.values(body.neighbors)) expect(edges.length).toBeLessThanOrEqual(20);
    const evidenced = Object.values(body.neighbors)
      .flat()
      .filter((e) => !e.approximate);
    expect(evidenced).toHaveLength(2);
    for (const edge of evidenced) expect(edge.co_mentions).toBe(sample.count(["person:joe biden", edge.entity_id]));
    expect(body.credits_charged).toBe(3 + 4);
    const tooMany = await server.get(`/graph/network?entity_id=${BIDEN}&limit_per_type=21`);
    await expectError(tooMany, 400, "invalid_parameter");
  });

  it("compares two windows: new, gone, grew by half, fell by a third, for a flat 3 credits more", async () => {
    const query = `/graph/network?entity_id=${BIDEN}&types=person,organization&limit_per_type=20&from=2023-01-01&to=2023-12-31&compare_from=2020-01-01&compare_to=2020-12-31`;
    const body = await get<NetworkBody>(query);
    const comparison = body.comparison;
    if (!comparison) throw new Error("no comparison");
    expect(comparison.from).toBe("20200101000000");
    expect(comparison.seed.articles).toBe(sample.count(["person:joe biden"], in2020));
    expect(body.seed.articles).toBe(sample.count(["person:joe biden"], in2023));
    expect(body.credits_charged).toBe(1 + cutWindowResolutionCredits() + 1 + 3);
    const now = (id: string) => sample.count(["person:joe biden", id], in2023);
    const before = (id: string) => sample.count(["person:joe biden", id], in2020);
    for (const c of comparison.new) {
      expect(before(c.entity_id)).toBe(0);
      expect(now(c.entity_id)).toBeGreaterThan(0);
    }
    for (const c of comparison.gone) {
      expect(now(c.entity_id)).toBe(0);
      expect(before(c.entity_id)).toBeGreaterThan(0);
    }
    for (const c of comparison.grew) expect(c.share).toBeGreaterThanOrEqual(c.previous_share * 1.5);
    for (const c of comparison.fell) expect(c.share).toBeLessThanOrEqual((c.previous_share * 2) / 3);
    expect(comparison.new.length).toBeGreaterThan(0);
    expect(comparison.gone.length).toBeGreaterThan(0);
    // Every neighbour of the 2023 window that 2020 also names either changed enough or was left out: check one rule both ways.
    for (const edge of body.neighbors.person ?? []) {
      const previous = before(edge.entity_id);
      const listedAsNew = comparison.new.some((c) => c.entity_id === edge.entity_id);
      expect(listedAsNew).toBe(previous === 0);
    }
    const preview = await json<{ credits: { min: number; max: number } }>(await server.get(`${query}&estimate=true`));
    expect(preview.credits).toEqual({ min: 5, max: 7 });
  });

  it("refuses a comparison with one bound, or with its bounds reversed", async () => {
    await expectError(await server.get(`/graph/network?entity_id=${BIDEN}&compare_from=2020-01-01`), 400, "invalid_parameter");
    const reversed = await expectError(
      await server.get(`/graph/network?entity_id=${BIDEN}&compare_from=2021-01-01&compare_to=2020-01-01`),
      400,
      "invalid_parameter",
    );
    expect(reversed.detail).toMatch(/compare_from/);
  });
});

describe("GET /graph/exposures", () => {
  it("counts the articles naming every entity, their stories and sources, with the newest as evidence", async () => {
    const ids = ["person:joe biden", "person:donald trump"];
    const body = await get<ExposuresBody>(
      `/graph/exposures?entity_id=${ids.map(encodeURIComponent).join(",")}&evidence=4&facets=source,language`,
    );
    const shared = sample.naming(ids);
    expect(body.shared.articles).toBe(shared.length);
    expect(body.shared.sources).toBeGreaterThanOrEqual(new Set(shared.map((a) => a.source)).size);
    expect(body.shared.stories).toBeGreaterThan(0);
    const stamps = shared.map((a) => a.published_at ?? "").sort();
    expect(body.shared.first_seen).toBe(stamps[0]);
    expect(body.shared.last_seen).toBe(stamps[stamps.length - 1]);
    expect(body.evidence).toHaveLength(4);
    for (const a of body.evidence) expect(ids.every((id) => names(sample.byId(a.id), id))).toBe(true);
    const english = body.facets?.language?.values.find((v) => v.value === "eng")?.count;
    expect(english).toBe(shared.filter((a) => a.language === "eng").length);
    expect(body.entities.map((e) => e.entity_id)).toEqual(ids);
    expect(body.entity_resolution_version).toBe("er-v1");
    // signal_stats: each signal's mean intensity over the shared articles carrying it, computed here from their signals.
    const carried = new Map<string, number[]>();
    for (const a of shared)
      for (const group of [a.signals?.industries, a.signals?.business_context, a.signals?.risk_context])
        for (const [name, value] of Object.entries(group ?? {})) carried.set(name, [...(carried.get(name) ?? []), value]);
    expect(carried.size).toBeGreaterThan(3);
    expect(Object.keys(body.signal_stats ?? {}).sort()).toEqual([...carried.keys()].sort());
    for (const [name, values] of carried) {
      expect(body.signal_stats?.[name]?.articles, name).toBe(values.length);
      expect(body.signal_stats?.[name]?.mean, name).toBeCloseTo(values.reduce((s, v) => s + v, 0) / values.length, 3);
    }
    // 1 + 1 per id + the shared articles and their summary.
    expect(body.credits_charged).toBe(1 + 2 + 2);
  });

  it("takes ids repeated as on /search, and three at once", async () => {
    const ids = ["person:brandon scott", "person:richard worley", "organization:baltimore police department"];
    const body = await get<ExposuresBody>(`/graph/exposures?${ids.map((i) => `entity_id=${encodeURIComponent(i)}`).join("&")}`);
    expect(body.shared.articles).toBe(sample.count(ids));
    expect(body.shared.articles).toBeGreaterThan(0);
    expect(body.credits_charged).toBe(1 + 3 + 2);
  });

  it("answers nothing shared, for fewer queries, when an id has no spelling in the window", async () => {
    const body = await get<ExposuresBody>(`/graph/exposures?entity_id=${BIDEN},organization:no%20such%20body&facets=source`);
    expect(body.shared).toEqual({ articles: 0, stories: 0, sources: 0, approximate: false });
    expect(body.facets?.source?.values).toEqual([]);
    expect(body.entities[1]?.aliases_used).toEqual([]);
    expect(body.credits_charged).toBe(3);
  });

  it("refuses one id, six ids and an unknown facet before any work", async () => {
    for (const query of [
      `entity_id=${BIDEN}`,
      `entity_id=${["a", "b", "c", "d", "e", "f"].map((n) => `person:${n}`).join(",")}`,
      `entity_id=${BIDEN},person:donald%20trump&facets=persons`,
    ]) {
      const response = await server.get(`/graph/exposures?${query}`);
      await expectError(response, 400, "invalid_parameter");
      expect(response.headers.get("x-credits-charged")).toBe("0");
    }
  });
});
