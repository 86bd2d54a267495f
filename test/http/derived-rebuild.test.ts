import { join } from "node:path";
import Database from "better-sqlite3";
import { getDistance } from "geolib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import { runCli, spawnCli, waitUntil } from "../support/cli-process.js";
import { readArticles } from "../support/gkg-fixtures.js";
import { makeOldFormat } from "../support/old-format-index.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { getOk } from "../support/get-ok.js";

// A monthly index built before the derived vocabularies (spec section 2,
// coverage `field_unavailable`): a request needing a derived field answers
// from the other months, partial; `newsindex reindex` rebuilds events-v1,
// geo-v1 and amounts-v1 from the stored articles while the server answers,
// resumes after kill -9, and leaves the month as a fresh ingest makes it.

interface Body {
  total: number;
  partial: boolean;
  coverage: string;
  results: Array<{ id: string }>;
  facets?: Record<string, { values: Array<{ value: string; count: number }> }>;
}

const OLD_MONTH = "202307";
const PARIS = { latitude: 48.8566, longitude: 2.3522 };

let server: TestServer;
let articles: ArticleDetail[];
let indexPath: string;

beforeAll(async () => {
  server = await startTestServer();
  articles = await readArticles(Object.values(SAMPLE_FILES));
  indexPath = join(server.dataDir, "index", `articles-${OLD_MONTH}.db`);
  makeOldFormat(indexPath);
});

afterAll(async () => {
  await server.close();
});

function get(path: string): Promise<Body> {
  return getOk<Body>(server, path);
}

const inOld = (a: ArticleDetail) => a.id.startsWith("2023");
const nearParis = (a: ArticleDetail) =>
  a.location_details.some(
    (l) =>
      l.kind === "city" &&
      l.latitude !== null &&
      l.longitude !== null &&
      getDistance(PARIS, { latitude: l.latitude, longitude: l.longitude }) <= 50_000,
  );
const strikesOf = () => articles.filter((a) => a.event_types?.includes("labor_strike"));

function rebuiltThrough(): number {
  const db = new Database(indexPath, { readonly: true, fileMustExist: true });
  try {
    return Number(db.prepare("SELECT value FROM meta WHERE key = 'rebuilt_through'").pluck().get() ?? 0);
  } finally {
    db.close();
  }
}

describe("an index built without the derived fields", () => {
  it("answers the rest, partial with coverage field_unavailable", async () => {
    expect(strikesOf().every(inOld)).toBe(true);
    const events = await get("/search?event_type=labor_strike");
    expect(events).toMatchObject({ total: 0, partial: true, coverage: "field_unavailable" });

    const paris = await get("/search?near=48.8566,2.3522&radius_km=50&limit=100");
    expect(paris).toMatchObject({ partial: true, coverage: "field_unavailable" });
    expect(paris.total).toBe(articles.filter((a) => nearParis(a) && !inOld(a)).length);
    expect(paris.total).toBeGreaterThan(0);

    expect(await get("/search?amount_min=1")).toMatchObject({ partial: true, coverage: "field_unavailable" });
    expect(await get("/search?signal=finance")).toMatchObject({ partial: true, coverage: "field_unavailable" });
    expect(await get("/search?facets=event_type")).toMatchObject({ partial: true, coverage: "field_unavailable" });
    const stories = await json<{ partial: boolean; coverage: string }>(await server.get("/stories?event_type=labor_strike"));
    expect(stories).toMatchObject({ partial: true, coverage: "field_unavailable" });
    // Signal metrics of a time series read signals-v1 like a signal filter.
    const series = await json<{ partial: boolean; coverage: string }>(
      await server.get("/aggregate?interval=all&metrics=signal:finance"),
    );
    expect(series).toMatchObject({ partial: true, coverage: "field_unavailable" });
    // Nothing derived asked for: the whole index answers.
    expect(await get("/search?q=strike")).toMatchObject({ partial: false, coverage: "complete" });
    const counts = await json<{ partial: boolean; coverage: string }>(await server.get("/aggregate?interval=all"));
    expect(counts).toMatchObject({ partial: false, coverage: "complete" });
  });

  it("is rebuilt by `newsindex reindex`, resumed after kill -9, while the server answers", async () => {
    const first = spawnCli(["reindex", "--data-dir", server.dataDir, "--batch", "1"]);
    await waitUntil(() => rebuiltThrough() >= 50, {
      timeoutMs: 60_000,
      alive: () => first.child.exitCode === null,
      describe: () => `reindex did not get under way: ${first.stderr()}`,
    });
    // The server keeps answering while the rebuild writes.
    expect((await server.get("/search?q=strike")).status).toBe(200);
    first.child.kill("SIGKILL");
    await first.exited;
    const stoppedAt = rebuiltThrough();
    expect(stoppedAt).toBeGreaterThan(0);
    // Not done: the month still says so.
    expect((await get("/search?event_type=labor_strike")).coverage).toBe("field_unavailable");

    // The resumed and the final reindex run in process; the killed one was a process of its own.
    const second = await runCli(["reindex", "--data-dir", server.dataDir]);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toContain("resuming after");
    expect(second.stdout).toMatch(/reindexed \d+ articles in 1 monthly indexes \(202307\)/);

    const strikes = strikesOf();
    const events = await get("/search?event_type=labor_strike&limit=100");
    expect(events).toMatchObject({ total: strikes.length, partial: false, coverage: "complete" });
    expect(events.results.map((r) => r.id).sort()).toEqual(strikes.map((a) => a.id).sort());
    // Term counts are exact: a killed batch left nothing counted twice.
    const facet = await get("/search?facets=event_type&from=2023-07-01&to=2023-07-31");
    expect(facet.facets?.event_type?.values).toContainEqual({ value: "labor_strike", count: strikes.length });
    const paris = await get("/search?near=48.8566,2.3522&radius_km=50&limit=100");
    expect(paris).toMatchObject({ total: articles.filter(nearParis).length, coverage: "complete" });
    // signals-v1 needs the GKG records' GCAM counts, which the index does not keep: the month still claims no
    // signals, whatever asks for them, and its articles carry none.
    for (const path of [
      "/search?signal=finance",
      "/search?signal=finance&signal_min=1",
      "/search?signals=finance:1:,conflict",
      "/search?signal=finance&signal_percentile_min=90",
      "/search?facets=signal",
      "/stories?signal=finance",
      "/aggregate?interval=all&metrics=signal:finance",
    ]) {
      const body = await json<{ partial: boolean; coverage: string }>(await server.get(path));
      expect(body, path).toMatchObject({ partial: true, coverage: "field_unavailable" });
    }
    const strike = await json<{ signals?: unknown; event_types?: string[] }>(
      await server.get(`/doc/${encodeURIComponent(strikes[0]?.id ?? "")}`),
    );
    expect(strike.event_types).toContain("labor_strike");
    expect(strike.signals).toBeUndefined();

    const again = await runCli(["reindex", "--data-dir", server.dataDir]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("every monthly index is up to date");
  });
});
