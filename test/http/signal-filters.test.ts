import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import { signalValues, type SignalName } from "../../src/domain/vocabularies/signals-v1.js";
import { expectError } from "../support/expect-error.js";
import { readArticles } from "../support/gkg-fixtures.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { getOk } from "../support/get-ok.js";

// The derived fields over HTTP on the real sample: every article carries
// signals-v1 and events-v1; `event_type`, `signal`, `signal_min`/`signal_max`,
// `signals` and `signal_percentile_min` filter /search, /top-headlines and
// /stories; the expected answers are worked out here from the parsed records.

interface Body {
  results: Array<Record<string, unknown> & { id: string }>;
  total: number;
  total_relation: string;
  has_more: boolean;
  coverage: string;
  partial: boolean;
  credits_charged: number;
  facets?: Record<string, { values: Array<{ value: string; count: number }> }>;
  signal_threshold?: { name: string; percentile: number; value: number | null; approximate: boolean };
}

let server: TestServer;
let articles: ArticleDetail[];

beforeAll(async () => {
  server = await startTestServer();
  articles = await readArticles(Object.values(SAMPLE_FILES));
});

afterAll(async () => {
  await server.close();
});

function get(path: string): Promise<Body> {
  return getOk<Body>(server, path);
}

const intensity = (a: ArticleDetail, name: SignalName): number | undefined =>
  signalValues(a.signals).find(([n]) => n === name)?.[1];

describe("signals and event_types on articles", () => {
  it("every article carries signals-v1 and event_types, in search hits and /doc", async () => {
    const body = await get("/search?limit=100");
    for (const hit of body.results) {
      expect(Array.isArray(hit.event_types)).toBe(true);
      expect(hit.signals).toMatchObject({ version: "signals-v1", unit: "per_1k_words" });
    }
    const doc = await json<Record<string, unknown>>(await server.get(`/doc/${body.results[0]?.id}`));
    expect(doc.signals).toBeDefined();
    expect(doc.event_types).toBeDefined();
  });
});

describe("event_type", () => {
  it("finds exactly the articles of a class, on /search, /top-headlines and /stories", async () => {
    const expected = articles
      .filter((a) => a.event_types?.includes("labor_strike"))
      .map((a) => a.id)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    const body = await get("/search?event_type=labor_strike&limit=100");
    expect(body.results.map((r) => r.id).sort()).toEqual(expected);
    expect(body.total).toBe(expected.length);
    expect((await get("/top-headlines?event_type=LABOR_STRIKE&limit=100")).total).toBe(expected.length);
    const stories = await json<{ total: number }>(await server.get("/stories?event_type=labor_strike"));
    expect(stories.total).toBeGreaterThan(0);
    expect(stories.total).toBeLessThanOrEqual(expected.length);
  });

  it("can be faceted, counted over the whole match set", async () => {
    const body = await get("/search?facets=event_type,signal&limit=1");
    const strikes = articles.filter((a) => a.event_types?.includes("labor_strike")).length;
    expect(body.facets?.event_type?.values).toContainEqual({ value: "labor_strike", count: strikes });
    const economy = articles.filter((a) => intensity(a, "economy") !== undefined).length;
    expect(body.facets?.signal?.values).toContainEqual({ value: "economy", count: economy });
  });

  it("refuses an unknown class naming the closest", async () => {
    const error = await expectError(await server.get("/search?event_type=labour_strike"), 400, "invalid_parameter");
    expect(error.detail).toContain("Did you mean 'labor_strike'?");
  });
});

describe("signal, signal_min, signal_max, signals", () => {
  it("bounds are inclusive and need the article to carry the signal", async () => {
    const values = articles.flatMap((a) => intensity(a, "finance") ?? []).sort((x, y) => x - y);
    const min = values[Math.floor(values.length / 2)] as number;
    const max = values[Math.floor((values.length * 3) / 4)] as number;
    const expected = articles.filter((a) => {
      const v = intensity(a, "finance");
      return v !== undefined && v >= min && v <= max;
    });
    const body = await get(`/search?signal=finance&signal_min=${min}&signal_max=${max}&limit=100`);
    expect(body.total).toBe(expected.length);
    expect(body.results.map((r) => r.id).sort()).toEqual(
      expected
        .map((a) => a.id)
        .sort()
        .slice(0, 100),
    );
    // The same range as a `signals` clause, and a bare `signal`: every article carrying it.
    expect((await get(`/search?signals=finance:${min}:${max}`)).total).toBe(expected.length);
    expect((await get("/search?signal=finance")).total).toBe(values.length);
    // Within a window, and paged by cursor newest first.
    const inJuly = expected.filter(
      (a) => (a.published_at ?? "") >= "20230701000000" && (a.published_at ?? "") <= "20230731235959",
    );
    const july = `signal=finance&signal_min=${min}&signal_max=${max}&from=2023-07-01&to=2023-07-31`;
    expect((await get(`/search?${july}`)).total).toBe(inJuly.length);
    const paged: string[] = [];
    let cursor = "start";
    for (;;) {
      const page = await json<Body & { next_cursor?: string }>(
        await server.get(`/top-headlines?${july}&limit=7&cursor=${cursor}`),
      );
      paged.push(...page.results.map((r) => r.id));
      if (page.next_cursor === undefined) break;
      cursor = page.next_cursor;
    }
    expect(paged.sort()).toEqual(inJuly.map((a) => a.id).sort());
  });

  it("ANDs `signals` clauses, an empty bound unbounded", async () => {
    const expected = articles.filter((a) => (intensity(a, "conflict") ?? -1) >= 2 && (intensity(a, "anxiety") ?? Infinity) <= 3);
    const body = await get("/search?signals=conflict:2:,anxiety::3");
    expect(body.total).toBe(expected.length);
    expect(body.total).toBeGreaterThan(0);
    const stories = await json<{ total: number }>(await server.get("/stories?signals=conflict:2:,anxiety::3"));
    expect(stories.total).toBeGreaterThan(0);
  });

  it("answers unknown signal names with unknown_signal (rule 2), in `signal` and in `signals`", async () => {
    await expectError(await server.get("/search?signal=bogus"), 400, "unknown_signal");
    const error = await expectError(await server.get("/search?signals=finance:1,finanse:2"), 400, "unknown_signal");
    expect(error.detail).toContain("'finance'");
    await expectError(await server.get("/top-headlines?signal=bogus"), 400, "unknown_signal");
    await expectError(await server.get("/stories?signals=bogus"), 400, "unknown_signal");
  });

  it("refuses malformed clauses, bounds without `signal` and min above max (rule 3)", async () => {
    for (const path of [
      "/search?signals=finance:1:2:3",
      "/search?signals=finance:x",
      "/search?signals=finance:5:1",
      "/search?signals=,",
      "/search?signal_min=1",
      "/search?signal_max=1",
      "/search?signal=finance&signal_min=5&signal_max=1",
      "/search?signal=finance&signal_min=-1",
      "/search?signal_percentile_min=90",
      "/search?signal=finance&signal_percentile_min=49",
      "/search?signal=finance&signal_percentile_min=100",
      "/search?signal=finance&signal_percentile_min=90&signal_min=1",
    ]) {
      await expectError(await server.get(path), 400, "invalid_parameter");
    }
  });
});

describe("signal_percentile_min", () => {
  it("keeps articles at or above the nearest-rank percentile, computed by hand on the sample", async () => {
    // Among English articles carrying `healthcare`: the 90th percentile by nearest rank.
    const carrying = articles.filter((a) => a.language === "eng" && intensity(a, "healthcare") !== undefined);
    const sorted = carrying.map((a) => intensity(a, "healthcare") as number).sort((x, y) => x - y);
    const threshold = sorted[Math.ceil(0.9 * sorted.length) - 1] as number;
    const expected = carrying.filter((a) => (intensity(a, "healthcare") as number) >= threshold);
    const body = await get("/search?language=eng&signal=healthcare&signal_percentile_min=90&limit=100");
    expect(body.signal_threshold).toEqual({ name: "healthcare", percentile: 90, value: threshold, approximate: false });
    expect(body.total).toBe(expected.length);
    expect(body.results.map((r) => r.id).sort()).toEqual(expected.map((a) => a.id).sort());
    // One extra credit for the threshold pass.
    expect(body.credits_charged).toBe(2);
    const stories = await json<{ signal_threshold: unknown; total: number }>(
      await server.get("/stories?language=eng&signal=healthcare&signal_percentile_min=90"),
    );
    expect(stories.signal_threshold).toEqual(body.signal_threshold);
    const top = await get("/top-headlines?language=eng&signal=healthcare&signal_percentile_min=90");
    expect(top.total).toBe(expected.length);
  });

  it("takes the threshold over every article carrying the signal when nothing else filters", async () => {
    const sorted = articles.flatMap((a) => intensity(a, "conflict") ?? []).sort((x, y) => x - y);
    const threshold = sorted[Math.ceil(0.75 * sorted.length) - 1] as number;
    const body = await get("/search?signal=conflict&signal_percentile_min=75");
    expect(body.signal_threshold?.value).toBe(threshold);
    expect(body.total).toBe(sorted.filter((v) => v >= threshold).length);
  });

  it("reports a null threshold when no matching article carries the signal", async () => {
    const body = await get("/search?q=zzzznotaword&signal=healthcare&signal_percentile_min=50");
    expect(body.signal_threshold).toEqual({ name: "healthcare", percentile: 50, value: null, approximate: false });
    expect(body.total).toBe(0);
  });
});
