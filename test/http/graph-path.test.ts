import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATH_NEIGHBOUR_TYPES } from "../../src/domain/graph.js";
import { expectError } from "../support/expect-error.js";
import { CoMentions, keysOf, names } from "../support/graph-brute-force.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// GET /graph/path over HTTP on the real samples, checked against a brute-force
// count over the parsed sample. Pairs chosen for what they show:
//
//   joe biden - donald trump          11 articles name both; many named neighbours connect them in articles of their own
//   brandon scott - richard worley    18 name both; of their shared neighbours only "baltimore police department" also
//                                     has articles of its own with each end: every other shared one (associated press,
//                                     julio cortez, ...) appears only in articles naming both ends
//   ajit pawar - sharad pawar         13 name both; shared neighbours (congress party, bharatiya janata party, ...)
//                                     but none with sharad pawar in an article without ajit pawar: no path at all

interface Edge {
  entity_id: string;
  co_mentions: number;
  share: number;
  evidence: Array<{ id: string }>;
  first_seen?: string;
  approximate: boolean;
}

interface Seed {
  entity_id: string;
  aliases_used: string[];
  articles?: number;
}

interface Body {
  from: Seed;
  to: Seed;
  direct: Edge;
  paths: Array<{ hops: string[]; edges: Edge[]; strength: number }>;
  credits_charged: number;
  indexed_through: string | null;
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

async function path(from: string, to: string, extra = ""): Promise<{ body: Body; estimate: { min: number; max: number } }> {
  const query = `from_entity=${encodeURIComponent(from)}&to_entity=${encodeURIComponent(to)}${extra}`;
  const response = await server.get(`/graph/path?${query}`);
  expect(response.status, query).toBe(200);
  const preview = await json<{ credits: { min: number; max: number } }>(await server.get(`/graph/path?${query}&estimate=true`));
  return { body: await json<Body>(response), estimate: preview.credits };
}

/** Articles naming `via` and `end` but not `other`: what a hop may rest on. */
const hopArticles = (via: string, end: string, other: string) => sample.naming([via, end], (a) => !names(a, other));

/** Neighbours (of the types a path goes through) with an article naming one end and not the other, on each side. */
function viasOf(from: string, to: string): string[] {
  const side = (end: string, other: string): Set<string> => {
    const out = new Set<string>();
    for (const a of sample.naming([end], (article) => !names(article, other)))
      for (const type of PATH_NEIGHBOUR_TYPES) for (const key of keysOf(a, type)) out.add(`${type}:${key}`);
    return out;
  };
  const theirs = side(to, from);
  return [...side(from, to)].filter((via) => via !== from && via !== to && theirs.has(via));
}

const PAIRS = [
  ["person:joe biden", "person:donald trump"],
  ["person:brandon scott", "person:richard worley"],
  ["person:ajit pawar", "person:sharad pawar"],
  ["person:hunter biden", "person:joe biden"],
  ["person:joe biden", "person:brandon scott"],
] as const;

describe("GET /graph/path: direct", () => {
  it.each(PAIRS)("%s to %s: counted exactly, as a brute-force count does, with max_hops=1", async (from, to) => {
    const { body, estimate } = await path(from, to, "&max_hops=1");
    const truth = sample.count([from, to]);
    expect(body.direct.entity_id).toBe(to);
    expect(body.direct.co_mentions).toBe(truth);
    expect(body.direct.approximate).toBe(false);
    expect(body.from.articles).toBe(sample.count([from]));
    expect(body.direct.share).toBe(Math.round((truth / sample.count([from])) * 1000) / 1000);
    // max_hops=1: no paths, from.articles set, to.articles absent.
    expect(body.paths).toEqual([]);
    expect(body.to).not.toHaveProperty("articles");
    for (const article of body.direct.evidence)
      expect(names(sample.byId(article.id), from) && names(sample.byId(article.id), to)).toBe(true);
    expect(body.direct.evidence.length).toBe(Math.min(3, truth));
    // indexed_through, the two ids, the direct count, its summary when it has articles, and the one more query.
    expect(body.credits_charged).toBe(1 + 2 + 1 + (truth > 0 ? 1 : 0) + 1);
    expect(estimate).toEqual({ min: 3, max: 8 });
  });

  it("is present with co_mentions 0 when no article names both", async () => {
    const { body } = await path("person:joe biden", "person:brandon scott", "&max_hops=1");
    expect(sample.count(["person:joe biden", "person:brandon scott"])).toBe(0);
    expect(body.direct).toMatchObject({
      entity_id: "person:brandon scott",
      co_mentions: 0,
      share: 0,
      evidence: [],
      approximate: false,
    });
  });

  it("uses one query fewer with two hops' counts but no evidence, and sets both ends' articles", async () => {
    const { body, estimate } = await path("person:joe biden", "person:donald trump", "&evidence=0");
    expect(estimate).toEqual({ min: 3, max: 9 });
    // indexed_through, two ids, the direct count, each end's neighbours.
    expect(body.credits_charged).toBe(1 + 2 + 1 + 2);
    expect(body.from.articles).toBe(34);
    expect(body.to.articles).toBe(sample.count(["person:donald trump"]));
    expect(body.direct.evidence).toEqual([]);
  });
});

describe("GET /graph/path: two hops", () => {
  it.each(PAIRS)("%s to %s: at most 5 paths, strongest first, each hop on articles without the other end", async (from, to) => {
    const { body, estimate } = await path(from, to);
    expect(estimate).toEqual({ min: 3, max: 16 });
    expect(body.credits_charged).toBeLessThanOrEqual(16);
    expect(body.paths.length).toBeLessThanOrEqual(5);
    const strengths = body.paths.map((p) => p.strength);
    expect(strengths).toEqual([...strengths].sort((a, b) => b - a));
    for (const p of body.paths) {
      const [start, via, end] = p.hops as [string, string, string];
      expect([start, end]).toEqual([from, to]);
      expect(p.edges.map((e) => e.entity_id)).toEqual([via, to]);
      expect(p.strength).toBe(Math.min(p.edges[0]?.co_mentions ?? 0, p.edges[1]?.co_mentions ?? 0));
      // Never through one article: each hop has articles of its own.
      expect(hopArticles(via, from, to).length, via).toBeGreaterThan(0);
      expect(hopArticles(via, to, from).length, via).toBeGreaterThan(0);
      const [first, second] = p.edges as [Edge, Edge];
      if (!first.approximate) expect(first.co_mentions).toBe(sample.count([from, via]));
      if (!second.approximate) expect(second.co_mentions).toBe(sample.count([via, to]));
      expect(first.share).toBe(Math.round((first.co_mentions / sample.count([from])) * 1000) / 1000);
      // The second hop's share is over the end entity's articles.
      expect(second.share).toBe(Math.round((second.co_mentions / sample.count([to])) * 1000) / 1000);
      // Evidence: the first hop's articles never name the end, the second's never the start, so no article is shared.
      for (const a of first.evidence) expect(names(sample.byId(a.id), to)).toBe(false);
      for (const a of second.evidence) expect(names(sample.byId(a.id), from)).toBe(false);
      const ids = new Set(first.evidence.map((a) => a.id));
      for (const a of second.evidence) expect(ids.has(a.id)).toBe(false);
    }
    // By brute force: every neighbour of both ends (of the types a path goes through) with articles of its own
    // on each hop. An empty list is right only when there is none; when no end has more than the 50 per type a
    // path looks among, the list is as long as the vias allow.
    const vias = viasOf(from, to);
    const uncut = PATH_NEIGHBOUR_TYPES.every(
      (type) => sample.neighbours([from], type).size <= 50 && sample.neighbours([to], type).size <= 50,
    );
    if (uncut) expect(body.paths.length).toBe(Math.min(5, vias.length));
    else expect(body.paths.length).toBeLessThanOrEqual(Math.min(5, vias.length));
    for (const p of body.paths) expect(vias).toContain(p.hops[1]);
  });

  it("finds two-hop paths for some of the pairs: the checks above ran on paths", async () => {
    const found = await Promise.all(PAIRS.map(async ([from, to]) => (await path(from, to)).body.paths.length));
    expect(found.filter((n) => n > 0).length).toBeGreaterThan(0);
  });

  it("finds no path where every shared neighbour appears only in articles naming both ends", async () => {
    const from = "person:ajit pawar";
    const to = "person:sharad pawar";
    const shared = [...sample.neighbours([from], "organization")].filter((n) => sample.count([n, to]) > 0);
    expect(shared.length).toBeGreaterThan(3);
    for (const n of shared) expect(hopArticles(n, to, from)).toEqual([]);
    const { body } = await path(from, to);
    expect(body.direct.co_mentions).toBe(13);
    expect(body.paths).toEqual([]);
  });

  it("keeps only the shared neighbour with articles of its own on both hops", async () => {
    const { body } = await path("person:brandon scott", "person:richard worley");
    expect(body.paths.map((p) => p.hops[1])).toEqual(["organization:baltimore police department"]);
    const [first, second] = body.paths[0]?.edges as [Edge, Edge];
    expect(first.approximate).toBe(false);
    expect(first.evidence.length).toBeGreaterThan(0);
    expect(second.evidence.length).toBeGreaterThan(0);
    expect(first.first_seen).toMatch(/^\d{14}$/);
  });

  it("gives evidence to as many paths as the 16 queries afford; the rest keep their counts", async () => {
    const { body } = await path("person:joe biden", "person:donald trump");
    expect(body.paths).toHaveLength(5);
    // 1 + 2 ids + direct (2) + two neighbour counts = 7; 4 per path with evidence: 2 of them.
    expect(body.credits_charged).toBe(15);
    const evidenced = body.paths.filter((p) => p.edges.every((e) => e.evidence.length > 0));
    expect(evidenced).toHaveLength(2);
    for (const p of body.paths.filter((q) => !evidenced.includes(q))) for (const e of p.edges) expect(e.evidence).toEqual([]);
  });

  it("refuses two ids in one end, a third hop and a missing end before any work", async () => {
    for (const query of [
      "from_entity=person:a,person:b&to_entity=person:c",
      "from_entity=person:a&to_entity=person:c&max_hops=3",
      "from_entity=person:a",
    ]) {
      const response = await server.get(`/graph/path?${query}`);
      await expectError(response, 400, "invalid_parameter");
      expect(response.headers.get("x-credits-charged")).toBe("0");
    }
  });
});
