import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-error.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { cutWindowResolutionCredits } from "../support/test-shape.js";

// GET /aggregate over HTTP on the real samples: the 2023-07-02 15:30 batch
// (collected in July, some published in June), the 2020-03 Spark test file
// and the 2020-02 BigQuery extract (two monthly indexes of 2020).

interface Bucket {
  start: string | null;
  end: string;
  articles: number;
  stories?: number;
  outlets?: number;
  approximate: boolean;
}

interface Body {
  interval: string;
  from: string | null;
  to: string;
  metrics: string[];
  buckets: Bucket[];
  total: number;
  approximate: boolean;
  resolved?: Array<{ entity_id: string; aliases_used: string[] }>;
  credits_charged: number;
  partial: boolean;
  coverage: string;
  history_days: number | null;
  from_clamped: boolean;
  [field: string]: unknown;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.spark, SAMPLE_FILES.bigquery], plans: ["free"] });
});

afterAll(async () => {
  await server.close();
});

async function aggregate(query: string, key?: string): Promise<Body> {
  const response = await server.get(`/aggregate?${query}`, key);
  expect(response.status, query).toBe(200);
  return json<Body>(response);
}

async function searchTotal(query: string): Promise<number> {
  return (await json<{ total: number }>(await server.get(`/search?${query}`))).total;
}

describe("GET /aggregate", () => {
  it("counts per hour equal /search totals over each bucket's window, every bucket listed", async () => {
    const body = await aggregate("interval=hour&from=20230702000000&to=2023-07-02");
    expect(body.buckets.length).toBe(24);
    expect(body.buckets[0]).toEqual({
      start: "20230702000000",
      end: "20230702005959",
      articles: expect.any(Number),
      approximate: false,
    });
    let seen = 0;
    for (const bucket of body.buckets) {
      expect(bucket.articles, bucket.start ?? "").toBe(await searchTotal(`from=${bucket.start}&to=${bucket.end}`));
      seen += bucket.articles;
    }
    expect(body.total).toBe(seen);
    expect(body.total).toBe(await searchTotal("from=2023-07-02&to=2023-07-02"));
    expect(body.buckets.filter((b) => b.articles > 0).length).toBeGreaterThan(3);
  });

  it("counts per day and per month equal /search totals, with filters and a keyword query", async () => {
    for (const query of [
      "interval=day&from=2023-06-25&to=2023-07-02",
      "interval=month&from=2020-01-01&to=2020-12-31&language=eng",
      "interval=day&from=2023-06-25&to=2023-07-03&q=biden",
    ]) {
      const body = await aggregate(query);
      const filters = query.replace(/interval=[a-z]+&from=[^&]+&to=[^&]+&?/, "");
      for (const bucket of body.buckets) {
        expect(bucket.articles, `${query} ${bucket.start}`).toBe(
          await searchTotal(`from=${bucket.start}&to=${bucket.end}${filters ? `&${filters}` : ""}`),
        );
      }
      expect(body.total).toBeGreaterThan(0);
    }
  });

  it("starts weeks on Monday", async () => {
    const body = await aggregate("interval=week&from=2023-06-20&to=2023-07-05");
    expect(body.buckets.map((b) => [b.start, b.end])).toEqual([
      ["20230619000000", "20230625235959"],
      ["20230626000000", "20230702235959"],
      ["20230703000000", "20230709235959"],
    ]);
    for (const b of body.buckets)
      expect(new Date(`${b.start?.slice(0, 4)}-${b.start?.slice(4, 6)}-${b.start?.slice(6, 8)}T00:00:00Z`).getUTCDay()).toBe(1);
    // 2023-07-02 is a Sunday: the batch published that day falls in the week of Monday 26 June.
    expect(body.buckets[1]?.articles).toBe(await searchTotal("from=20230626000000&to=20230702235959"));
    // The first bucket starts before `from`: it counts only what the window holds.
    expect(body.buckets[0]?.articles).toBe(await searchTotal("from=2023-06-20&to=20230625235959"));
  });

  it("counts distinct stories and outlets per bucket, exact within one monthly index", async () => {
    const body = await aggregate("interval=month&from=2020-03-01&to=2020-03-31&metrics=stories,outlets");
    expect(body.metrics).toEqual(["stories", "outlets"]);
    const march = body.buckets[0] as Bucket;
    expect(march.approximate).toBe(false);
    const facets = await json<{ total: number; facets: { source: { values: unknown[]; sum_other_doc_count: number } } }>(
      await server.get("/search?from=2020-03-01&to=2020-03-31&facets=source&facet_limit=100"),
    );
    expect(facets.facets.source.sum_other_doc_count).toBe(0);
    expect(march.outlets).toBe(facets.facets.source.values.length);
    const stories = await json<{ total: number }>(await server.get("/stories?from=2020-03-01&to=2020-03-31"));
    expect(march.stories).toBe(stories.total);
    expect(march.articles).toBe(facets.total);
  });

  it("counts distinct stories and outlets across monthly indexes, marked approximate when summed", async () => {
    const months = await aggregate("interval=month&from=2020-02-01&to=2020-03-31&metrics=stories,outlets");
    expect(months.buckets.map((b) => b.approximate)).toEqual([false, false]);
    expect(months.approximate).toBe(false);
    const all = await aggregate("interval=all&from=2020-02-01&to=2020-03-31&metrics=stories,outlets");
    expect(all.buckets.length).toBe(1);
    const bucket = all.buckets[0] as Bucket;
    expect(bucket).toMatchObject({ start: "20200201000000", end: "20200331235959" });
    expect(all.approximate).toBe(bucket.approximate);
    expect(bucket.articles).toBe((months.buckets[0]?.articles ?? 0) + (months.buckets[1]?.articles ?? 0));
    const [feb, march] = months.buckets as [Bucket, Bucket];
    const distinct = await json<{ facets: { source: { values: unknown[] } } }>(
      await server.get("/search?from=2020-02-01&to=2020-03-31&facets=source&facet_limit=100"),
    );
    const storyIds = new Set<string>();
    const sources = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const page = await json<{ results: Array<{ story_id: string | null; source: string | null }>; has_more: boolean }>(
        await server.get(`/search?from=2020-02-01&to=2020-03-31&limit=100&offset=${offset}`),
      );
      for (const hit of page.results) {
        if (hit.story_id !== null) storyIds.add(hit.story_id);
        if (hit.source !== null) sources.add(hit.source);
      }
      if (!page.has_more) break;
    }
    if (bucket.approximate) {
      // Summed across the two monthly indexes (the embedded engine): a story or outlet in both counts twice, an upper bound.
      expect(bucket.stories).toBe((feb.stories ?? 0) + (march.stories ?? 0));
      expect(bucket.outlets).toBe((feb.outlets ?? 0) + (march.outlets ?? 0));
      expect(bucket.outlets).toBeGreaterThanOrEqual(distinct.facets.source.values.length);
    } else {
      // Counted over the whole window at once (the scaled shape): exact.
      expect(bucket.outlets).toBe(sources.size);
      expect(bucket.stories).toBe(storyIds.size);
    }
    const plain = await aggregate("interval=all&from=2020-02-01&to=2020-03-31");
    expect(plain.buckets[0]?.approximate).toBe(false);
  });

  it("refuses more than 366 buckets, saying how to narrow", async () => {
    const days = await expectError(
      await server.get("/aggregate?interval=day&from=2020-01-01&to=2021-12-31"),
      400,
      "invalid_parameter",
    );
    expect(days.detail).toMatch(/731 buckets; at most 366/);
    expect(days.detail).toMatch(/Narrow 'from'\/'to'/);
    const hours = await expectError(
      await server.get("/aggregate?interval=hour&from=2023-06-01&to=2023-07-02"),
      400,
      "invalid_parameter",
    );
    expect(hours.detail).toMatch(/768 buckets/);
    expect((await aggregate("interval=day&from=2024-01-01&to=2024-12-31")).buckets.length).toBe(366);
  });

  it("starts at the plan's reach without from, at most 366 buckets back", async () => {
    const archive = await aggregate("interval=day");
    expect(archive.buckets.length).toBe(366);
    expect(archive.from_clamped).toBe(false);
    const free = await aggregate("interval=day", server.keys.free);
    expect(free.history_days).toBe(30);
    expect(free.buckets.length).toBe(31);
    expect(free.from_clamped).toBe(false);
    const clamped = await aggregate("interval=month&from=2020-01-01", server.keys.free);
    expect(clamped.from_clamped).toBe(true);
    // A window that ends before the plan's reach is clamped to nothing: an empty series, never a refusal.
    const before = await aggregate("interval=day&from=2020-01-01&to=2020-02-01", server.keys.free);
    expect(before).toMatchObject({ buckets: [], total: 0, from_clamped: true, coverage: "complete" });
    const future = await aggregate("interval=all&from=2099-01-01");
    expect(future).toMatchObject({ buckets: [], total: 0 });
    const whole = await aggregate("interval=all");
    expect(whole.from).toBeNull();
    expect(whole.buckets[0]?.start).toBeNull();
    expect(whole.total).toBe(await searchTotal(""));
  });

  it("takes entity_id, reports resolved and charges its resolution", async () => {
    // 366 months back from now reach past every article: no monthly index is cut, 1 credit for the id.
    const body = await aggregate(`interval=month&entity_id=${encodeURIComponent("person:joe biden")}`);
    expect(body.resolved).toEqual([{ entity_id: "person:joe biden", aliases_used: ["joe biden"] }]);
    expect(body.total).toBe(await searchTotal(`entity_id=${encodeURIComponent("person:joe biden")}`));
    expect(body.credits_charged).toBe(2);
    // A window cutting into a monthly index (the 2020-02 extract holds articles published in 2019) checks spellings against it.
    const cut = await aggregate(
      `interval=month&from=2020-01-01&to=2023-12-31&entity_id=${encodeURIComponent("person:joe biden")}`,
    );
    expect(cut.credits_charged).toBe(1 + cutWindowResolutionCredits());
    const preview = await json<{ credits: unknown }>(
      await server.get("/aggregate?interval=day&entity_id=person:x,person:y&estimate=true"),
    );
    expect(preview.credits).toEqual({ min: 3, max: 5 });
    const plain = await aggregate("interval=month&from=2023-01-01&to=2023-12-31");
    expect(plain.credits_charged).toBe(1);
  });

  it("refuses bad intervals and metrics, the location and amount filters, before any work", async () => {
    await expectError(await server.get("/aggregate"), 400, "invalid_parameter");
    await expectError(await server.get("/aggregate?interval=year"), 400, "invalid_parameter");
    const metric = await expectError(
      await server.get("/aggregate?interval=day&metrics=stories,people"),
      400,
      "invalid_parameter",
    );
    expect(metric.detail).toMatch(/people/);
    const signal = await expectError(await server.get("/aggregate?interval=day&metrics=signal:conflicts"), 400, "unknown_signal");
    expect(signal.detail).toMatch(/signal:conflict'/);
    for (const name of ["near", "radius_km", "bbox", "amount_min", "amount_max", "offset", "facets"]) {
      await expectError(await server.get(`/aggregate?interval=day&${name}=1`), 400, "unknown_parameter");
    }
  });
});

describe("GET /aggregate signal metrics", () => {
  /** Every article /search finds for the query, all pages. */
  async function everyArticle(query: string): Promise<Array<{ signals?: { risk_context: Record<string, number> } }>> {
    const all: Array<{ signals?: { risk_context: Record<string, number> } }> = [];
    for (let offset = 0; ; offset += 100) {
      const page = await json<{ results: typeof all; has_more: boolean }>(
        await server.get(`/search?${query}&limit=100&offset=${offset}`),
      );
      all.push(...page.results);
      if (!page.has_more) return all;
    }
  }

  it("a signal's mean and nearest-rank percentile per bucket equal those computed from the articles themselves", async () => {
    const window = "from=20230702000000&to=2023-07-02";
    const values = (await everyArticle(`signal=conflict&${window}`))
      .map((a) => a.signals?.risk_context.conflict)
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
    expect(values.length).toBeGreaterThan(10);
    const rank = Math.ceil((75 * values.length) / 100 - 1e-9);
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    const body = await aggregate(`interval=all&${window}&metrics=signal:conflict,stories&percentile=75`);
    expect(body.percentile).toBe(75);
    const bucket = body.buckets[0] as Bucket & { signals: Record<string, { mean: number; percentile: number }> };
    expect(bucket.signals.conflict?.percentile).toBeCloseTo(values[rank - 1] as number, 9);
    expect(bucket.signals.conflict?.mean).toBeCloseTo(mean, 3);
    // Signal bounds filter the series like any other filter.
    const bounded = await aggregate(`interval=all&${window}&signal=conflict&signal_min=${values[rank - 1]}`);
    expect(bounded.total).toBe(values.filter((v) => v >= (values[rank - 1] as number)).length);
  });

  it("a bucket where no match carries the signal reports nulls", async () => {
    const body = await aggregate("interval=day&from=2023-06-01&to=2023-06-02&metrics=signal:cyber_incident");
    for (const bucket of body.buckets as Array<Bucket & { signals: Record<string, unknown> }>) {
      if (bucket.articles === 0) expect(bucket.signals.cyber_incident).toEqual({ mean: null, percentile: null });
    }
  });
});
