import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTICLE_FIELDS, COMPACT_ARTICLE_FIELDS } from "../../src/domain/article.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";

interface Hit {
  id: string;
  title: string | null;
  source: string | null;
  language: string | null;
  publisher_country: string | null;
  source_type: string | null;
  published_at: string;
  persons: string[];
  organizations: string[];
  score?: number;
  [field: string]: unknown;
}

interface SearchBody {
  results: Hit[];
  total: number;
  total_relation: string;
  offset: number;
  limit: number;
  has_more: boolean;
  mode: string;
  history_days: number | null;
  from_clamped: boolean;
  partial: boolean;
  coverage: string;
  credits_charged: number;
  attribution: string;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ plans: ["free"] });
});

afterAll(async () => {
  await server.close();
});

async function search(query: string, key?: string): Promise<{ status: number; body: SearchBody; headers: Headers }> {
  const response = await server.get(`/search?${query}`, key);
  return { status: response.status, body: await json<SearchBody>(response), headers: response.headers };
}

describe("GET /search, keyword ranking", () => {
  it("ranks headlines that carry the words first, with every Article field and a score", async () => {
    const { status, body, headers } = await search("q=baltimore+shooting&limit=5");
    expect(status).toBe(200);
    expect(body.mode).toBe("keyword");
    expect(body.total_relation).toBe("exact");
    expect(body.results).toHaveLength(5);
    // The 2023 batch carries the Baltimore block-party shooting at many outlets.
    for (const hit of body.results) {
      expect(hit.title?.toLowerCase()).toContain("baltimore");
      expect(hit.title?.toLowerCase()).toMatch(/shoot/);
      for (const field of ARTICLE_FIELDS) expect(hit).toHaveProperty(field);
      expect(typeof hit.score).toBe("number");
    }
    const scores = body.results.map((h) => h.score as number);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(body.total).toBeGreaterThan(5);
    expect(body.has_more).toBe(true);
    expect(body.credits_charged).toBe(1);
    expect(body.attribution).toContain("GDELT");
    expect(body.partial).toBe(false);
    expect(body.coverage).toBe("complete");
    expect(body.from_clamped).toBe(false);
    expect(body.history_days).toBeNull();
    expect(headers.get("x-credits-charged")).toBe("1");
  });

  it("matches entity names as well as titles, ranking title hits above within each monthly index", async () => {
    const { body } = await search("q=biden&limit=100");
    expect(body.total).toBe(body.results.length);
    const inTitle = (h: Hit): boolean => (h.title ?? "").toLowerCase().includes("biden");
    expect(inTitle(body.results[0] as Hit)).toBe(true);
    const entityOnly = body.results.filter((h) => !inTitle(h));
    expect(entityOnly.length).toBeGreaterThan(0);
    for (const hit of entityOnly.slice(0, 5)) {
      const detail = await json<{ persons: string[]; organizations: string[]; names: string[] }>(
        await server.get(`/doc/${hit.id}`),
      );
      expect(JSON.stringify([detail.persons, detail.organizations, detail.names])).toMatch(/biden/i);
    }
    // BM25 statistics are per monthly index, so the promise holds within one.
    const months = new Set(body.results.map((h) => h.id.slice(0, 6)));
    for (const month of months) {
      const order = body.results.filter((h) => h.id.startsWith(month)).map(inTitle);
      const firstEntityOnly = order.indexOf(false);
      if (firstEntityOnly >= 0) expect(order.slice(firstEntityOnly).every((x) => !x)).toBe(true);
    }
  });

  it("understands phrases, OR and negation", async () => {
    const phrase = (await search('q="block+party"&limit=100')).body;
    expect(phrase.total).toBeGreaterThan(0);
    // Punctuation separates words, so "block-party" is the phrase too.
    for (const hit of phrase.results)
      expect((hit.title ?? "").toLowerCase().replace(/[^a-z0-9]+/g, " ")).toContain("block party");

    const baltimore = (await search("q=baltimore&limit=1")).body.total;
    const minus = (await search("q=baltimore+-shooting&limit=100")).body;
    expect(minus.total).toBeLessThan(baltimore);
    for (const hit of minus.results) expect((hit.title ?? "").toLowerCase()).not.toContain("shooting");

    const either = (await search("q=baltimore+OR+inverness&limit=1")).body.total;
    const inverness = (await search("q=inverness&limit=1")).body.total;
    expect(either).toBeGreaterThan(Math.max(baltimore, inverness) - 1);
    expect(either).toBeLessThanOrEqual(baltimore + inverness);
  });

  it("answers zero results as a complete 200", async () => {
    const { status, body } = await search("q=zzyzxnotaword");
    expect(status).toBe(200);
    expect(body.results).toEqual([]);
    expect(body.total).toBe(0);
    expect(body.has_more).toBe(false);
    expect(body.coverage).toBe("complete");
  });
});

describe("GET /search, newest-first browse", () => {
  it("orders by published_at newest first, then id, without scores", async () => {
    const { body } = await search("limit=100");
    expect(body.mode).toBe("recent");
    expect(body.total).toBe(server.ingest.inserted);
    for (const hit of body.results) expect(hit).not.toHaveProperty("score");
    for (let i = 1; i < body.results.length; i++) {
      const prev = body.results[i - 1] as Hit;
      const cur = body.results[i] as Hit;
      expect(prev.published_at > cur.published_at || (prev.published_at === cur.published_at && prev.id > cur.id)).toBe(true);
    }
  });

  it("pages with offset and limit without overlap, and has_more ends", async () => {
    const first = (await search("limit=20")).body.results.map((h) => h.id);
    const a = (await search("limit=10")).body.results.map((h) => h.id);
    const b = (await search("limit=10&offset=10")).body.results.map((h) => h.id);
    expect([...a, ...b]).toEqual(first);
    const total = (await search("limit=1")).body.total;
    const last = (await search(`limit=10&offset=${total - 3}`)).body;
    expect(last.results).toHaveLength(3);
    expect(last.has_more).toBe(false);
  });

  it("shows each hit's Article fields with the values /doc/{id} has for it", async () => {
    const { body } = await search("q=baltimore+shooting&limit=3");
    expect(body.results.length).toBeGreaterThan(0);
    for (const hit of body.results) {
      const doc = await json<Record<string, unknown>>(await server.get(`/doc/${hit.id}`));
      for (const field of ARTICLE_FIELDS) expect((hit as unknown as Record<string, unknown>)[field]).toEqual(doc[field]);
    }
  });

  it("keeps exactly the compact fields with view=compact", async () => {
    const { body } = await search("q=baltimore&view=compact&limit=3");
    for (const hit of body.results) {
      expect(Object.keys(hit).sort()).toEqual([...COMPACT_ARTICLE_FIELDS].sort());
    }
    const browse = (await search("view=compact&limit=3")).body;
    const withoutScore = COMPACT_ARTICLE_FIELDS.filter((f) => f !== "score").sort();
    for (const hit of browse.results) expect(Object.keys(hit).sort()).toEqual(withoutScore);
  });
});

describe("GET /search filters", () => {
  it("filters by language, case-insensitively", async () => {
    const lower = (await search("language=fra&limit=100")).body;
    const upper = (await search("language=FRA&limit=100")).body;
    expect(lower.total).toBeGreaterThan(0);
    expect(upper.total).toBe(lower.total);
    for (const hit of lower.results) expect(hit.language).toBe("fra");
  });

  it("filters by source, source_type and publisher_country, ANDed", async () => {
    const hill = (await search("source=thehill.com&limit=100")).body;
    expect(hill.total).toBeGreaterThan(0);
    for (const hit of hill.results) expect(hit.source).toBe("thehill.com");

    const citation = (await search("source_type=citation&limit=100")).body;
    // Enum values match whatever their case, like every other filter.
    expect((await search("source_type=CITATION&limit=1")).body.total).toBe(citation.total);
    // The spark-gdelt sample holds exactly two citation-only records.
    expect(citation.total).toBe(2);
    for (const hit of citation.results) {
      expect(hit.source_type).toBe("citation");
      expect(hit.url).toBeNull();
    }

    const uk = (await search("publisher_country=uk&limit=100")).body;
    expect(uk.total).toBeGreaterThan(0);
    for (const hit of uk.results) expect(hit.publisher_country).toBe("UK");
    const ukEnglish = (await search("publisher_country=UK&language=eng&q=police&limit=100")).body;
    expect(ukEnglish.total).toBeLessThanOrEqual(uk.total);
    for (const hit of ukEnglish.results) {
      expect(hit.publisher_country).toBe("UK");
      expect(hit.language).toBe("eng");
    }
  });

  it("bounds published_at with from and to, a day as to covering the whole day", async () => {
    const { body } = await search("from=2020-02-22&to=2020-02-22&limit=100");
    expect(body.total).toBeGreaterThan(0);
    for (const hit of body.results) expect(hit.published_at.slice(0, 8)).toBe("20200222");
    const narrow = (await search("from=20200222010000&to=20200222015959&limit=100")).body;
    expect(narrow.total).toBeGreaterThan(0);
    expect(narrow.total).toBeLessThan(body.total);
    for (const hit of narrow.results) {
      expect(hit.published_at >= "20200222010000" && hit.published_at <= "20200222015959").toBe(true);
    }
  });

  it("is also served under /v1", async () => {
    const plain = await json<SearchBody>(await server.get("/search?q=baltimore&limit=3"));
    const v1 = await json<SearchBody>(await server.get("/v1/search?q=baltimore&limit=3"));
    expect(v1.results.map((h) => h.id)).toEqual(plain.results.map((h) => h.id));
  });
});

describe("GET /search plan window", () => {
  it("moves an old from forward to a free plan's reach and says so", async () => {
    const { status, body, headers } = await search("from=2015-01-01", server.keys.free);
    expect(status).toBe(200);
    expect(body.history_days).toBe(30);
    expect(body.from_clamped).toBe(true);
    // The sample is years old, so nothing falls inside the last 30 days.
    expect(body.total).toBe(0);
    expect(headers.get("x-plan-history-days")).toBe("30");
    expect(headers.get("x-credits-limit")).toBe("1000");
  });

  it("does not flag a window the plan reaches anyway", async () => {
    const { body } = await search("from=2015-01-01");
    expect(body.from_clamped).toBe(false);
    expect(body.total).toBe(server.ingest.inserted);
    const free = (await search("", server.keys.free)).body;
    expect(free.from_clamped).toBe(false);
  });
});
