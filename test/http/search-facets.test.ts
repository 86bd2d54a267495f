import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILTER_FIELD_NAMES } from "../../src/domain/filter-fields.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";
import { getOk } from "../support/get-ok.js";

// Facets (spec sections 2 and 4): counts over the whole match set, honest
// when five monthly indexes (2015-02 … 2023-07 in the sample) are merged.

interface Facet {
  values: Array<{ value: string; count: number }>;
  sum_other_doc_count: number;
  doc_count_error_upper_bound: number;
  approximate: boolean;
}

interface Body {
  results: Array<{ id: string; [k: string]: unknown }>;
  total: number;
  facets?: Record<string, Facet>;
  credits_charged: number;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

function get(path: string): Promise<Body> {
  return getOk<Body>(server, path);
}

/** The true number of matches for a value: the same query filtered by it. */
async function trueCount(base: string, field: string, value: string): Promise<number> {
  return (await get(`${base}&${field}=${encodeURIComponent(value)}&limit=1`)).total;
}

function expectFacetShape(facet: Facet | undefined, limit: number): asserts facet is Facet {
  expect(facet).toBeDefined();
  const f = facet as Facet;
  expect(f.values.length).toBeLessThanOrEqual(limit);
  for (const v of f.values) {
    expect(typeof v.value).toBe("string");
    expect(Number.isInteger(v.count) && v.count > 0).toBe(true);
  }
  const counts = f.values.map((v) => v.count);
  expect([...counts].sort((a, b) => b - a)).toEqual(counts);
  expect(Number.isInteger(f.sum_other_doc_count) && f.sum_other_doc_count >= 0).toBe(true);
  expect(Number.isInteger(f.doc_count_error_upper_bound) && f.doc_count_error_upper_bound >= 0).toBe(true);
  expect(f.approximate).toBe(f.doc_count_error_upper_bound > 0);
}

describe("facets", () => {
  it("counts every requested field over the whole match set, not the page", async () => {
    const body = await get("/search?q=police&facets=source,person,topic&limit=1");
    expect(Object.keys(body.facets ?? {}).sort()).toEqual(["person", "source", "topic"]);
    for (const field of ["source", "person", "topic"]) expectFacetShape(body.facets?.[field], 10);
    expect(body.results).toHaveLength(1);
    const source = body.facets?.source as Facet;
    // One source per article: the listed counts and the rest add up to the match set.
    expect(source.values.reduce((s, v) => s + v.count, 0) + source.sum_other_doc_count).toBe(body.total);
    // Each count is what filtering by the value finds (or within the stated error bound).
    for (const field of ["source", "person", "topic"]) {
      const facet = body.facets?.[field] as Facet;
      for (const { value, count } of facet.values.slice(0, 3)) {
        const actual = await trueCount("/search?q=police", field, value);
        expect(actual, `${field}=${value}`).toBeGreaterThanOrEqual(count);
        expect(actual, `${field}=${value}`).toBeLessThanOrEqual(count + facet.doc_count_error_upper_bound);
      }
    }
  });

  it("leaves the ranked page as it was", async () => {
    const plain = await get("/search?q=baltimore&limit=5");
    const faceted = await get("/search?q=baltimore&limit=5&facets=language");
    expect(faceted.results.map((h) => h.id)).toEqual(plain.results.map((h) => h.id));
    expect(faceted.total).toBe(plain.total);
    expect(faceted.credits_charged).toBe(1);
  });

  it("lists every value with its exact count when they fit in facet_limit", async () => {
    const body = await get("/search?facets=language&facet_limit=100&limit=1");
    const facet = body.facets?.language as Facet;
    expectFacetShape(facet, 100);
    expect(facet.sum_other_doc_count).toBe(0);
    expect(facet.approximate).toBe(false);
    expect(facet.values.reduce((s, v) => s + v.count, 0)).toBe(body.total);
    for (const { value, count } of facet.values) expect(await trueCount("/search?", "language", value)).toBe(count);
  });

  it("is honest when monthly indexes each cut their list: approximate, with a bound that holds", async () => {
    // facet_limit=1: each index returns its top 12 topics, and most hold far more.
    const body = await get("/search?facets=topic,person&facet_limit=1");
    for (const field of ["topic", "person"]) {
      const facet = body.facets?.[field] as Facet;
      expectFacetShape(facet, 1);
      expect(facet.approximate, field).toBe(true);
      expect(facet.doc_count_error_upper_bound).toBeGreaterThan(0);
      const top = facet.values[0] as { value: string; count: number };
      const actual = await trueCount("/search?", field, top.value);
      expect(actual).toBeGreaterThanOrEqual(top.count);
      expect(actual).toBeLessThanOrEqual(top.count + facet.doc_count_error_upper_bound);
    }
  });

  it("is exact when one monthly index holds the whole match set", async () => {
    const body = await get("/search?from=2023-07-01&to=2023-07-31&facets=topic,organization&facet_limit=5");
    for (const field of ["topic", "organization"]) {
      const facet = body.facets?.[field] as Facet;
      expectFacetShape(facet, 5);
      expect(facet.approximate).toBe(false);
      expect(facet.doc_count_error_upper_bound).toBe(0);
      for (const { value, count } of facet.values) {
        expect(await trueCount("/search?from=2023-07-01&to=2023-07-31", field, value)).toBe(count);
      }
    }
  });

  it("facets story_id, and every other filter field", async () => {
    const body = await get("/search?source=thehill.com&facets=story_id&facet_limit=100");
    const facet = body.facets?.story_id as Facet;
    expectFacetShape(facet, 100);
    // Unclustered articles are their own stories.
    expect(facet.values.length).toBe(Math.min(body.total, 100));
    for (const v of facet.values) expect(v.count).toBe(1);
    for (let i = 0; i < FILTER_FIELD_NAMES.length; i += 8) {
      const fields = FILTER_FIELD_NAMES.slice(i, i + 8);
      const all = await get(`/search?q=biden&facets=${fields.join(",")}&facet_limit=3`);
      for (const field of fields) expectFacetShape(all.facets?.[field], 3);
    }
  });

  it("is served on /top-headlines too", async () => {
    const body = await get("/top-headlines?language=fra&facets=source,publisher_country&facet_limit=2");
    expectFacetShape(body.facets?.source, 2);
    expectFacetShape(body.facets?.publisher_country, 2);
  });

  it.each([
    ["facets=sources", "Did you mean 'source'"],
    ["facets=event_types", "Did you mean 'event_type'"],
    ["facets=from", "unknown field 'from'"],
    ["facets=source,language,topic,person,organization,name,country,city,region", "at most 8"],
    ["facets=,", "names no field"],
    ["facets=source&facet_limit=0", "1 to 100"],
    ["facets=source&facet_limit=101", "1 to 100"],
  ])("refuses %s as invalid_parameter", async (query, hint) => {
    const response = await server.get(`/search?${query}`);
    expect(response.status).toBe(400);
    const body = await json<{ code: string; detail: string }>(response);
    expect(body.code).toBe("invalid_parameter");
    expect(body.detail).toContain(hint);
  });
});
