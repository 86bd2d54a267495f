import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDistance } from "geolib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import { expectError } from "../support/expect-error.js";
import { readArticles, realRows, tieGroup, writeGkgFile } from "../support/gkg-fixtures.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { scaledShape } from "../support/test-shape.js";
import { getOk } from "../support/get-ok.js";

// `near` + `radius_km`, `bbox` and `amount_min`/`amount_max` over HTTP on the
// real sample (spec section 4, rules 5 and 6): expected matches worked out
// here from the parsed records with geolib, the antimeridian, the geohash cell
// limit, the refusals, and the candidate cut on a month of 2,600 real records.

interface Location {
  name: string;
  country: string | null;
  latitude: number;
  longitude: number;
  distance_km?: number;
}
interface Body {
  results: Array<Record<string, unknown> & { id: string; matched_locations?: Location[] }>;
  total: number;
  total_relation: string;
  has_more: boolean;
  coverage: string;
  credits_charged: number;
  facets?: Record<string, { approximate: boolean; values: Array<{ value: string; count: number }> }>;
}

const PARIS = { latitude: 48.8566, longitude: 2.3522 };
/** A month of 2,600 real records (the 2023 batch, cycled) at one timestamp: more candidates than are checked. */
const CUT_STAMP = "20230815120000";
const UNPARSED_STAMP = "20230910120000";
/** V2.1Amounts, 0-based. */
const COL_AMOUNTS = 24;

let server: TestServer;
let articles: ArticleDetail[];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "newsindex-geo-"));
  const many = writeGkgFile(dir, "cut.gkg.csv", tieGroup(realRows(), 2600, CUT_STAMP));
  // A real record whose only amount is written in words: its number does not parse.
  const [unparsed] = tieGroup(realRows().slice(0, 1), 1, UNPARSED_STAMP, "U") as [string[]];
  unparsed[COL_AMOUNTS] = "several,dollars,120;";
  const odd = writeGkgFile(dir, "unparsed.gkg.csv", [unparsed]);
  server = await startTestServer({ files: [...Object.values(SAMPLE_FILES), many, odd] });
  articles = await readArticles(Object.values(SAMPLE_FILES));
});

afterAll(async () => {
  await server.close();
});

function get(path: string): Promise<Body> {
  return getOk<Body>(server, path);
}

const cities = (a: ArticleDetail) =>
  a.location_details.filter((l) => l.kind === "city" && l.latitude !== null && l.longitude !== null);
const km = (a: { latitude: number; longitude: number }, b: { latitude: number | null; longitude: number | null }) =>
  getDistance(a, { latitude: b.latitude as number, longitude: b.longitude as number }, 0.1) / 1000;
/** The sample without the month of copies. */
const SAMPLE_WINDOW = "to=2023-07-31";

describe("near + radius_km", () => {
  it("matches articles mentioning a city within the radius, with matched_locations nearest first", async () => {
    const expected = articles.filter((a) => cities(a).some((c) => km(PARIS, c) <= 50));
    expect(expected.length).toBeGreaterThan(5);
    const body = await get(`/search?near=48.8566,2.3522&radius_km=50&${SAMPLE_WINDOW}&limit=100`);
    expect(body.total).toBe(expected.length);
    expect(body.total_relation).toBe("exact");
    expect(body.results.map((r) => r.id).sort()).toEqual(expected.map((a) => a.id).sort());
    for (const hit of body.results) {
      const found = hit.matched_locations ?? [];
      expect(found.length).toBeGreaterThan(0);
      const distances = found.map((l) => l.distance_km as number);
      expect(distances).toEqual([...distances].sort((x, y) => x - y));
      for (const l of found) expect(l.distance_km).toBeLessThanOrEqual(50);
    }
    // Regions and countries do not count (rule 5): "France" alone (its centroid) is not a city.
    expect(body.results.every((r) => (r.matched_locations ?? []).every((l) => l.name !== "France"))).toBe(true);
    // 1, plus a credit per batch of 500 the largest monthly index checked, plus the derived-field check. The embedded
    // engine checks the 951 candidates of the area's cells (2 batches); the scaled shape's engine matches the area
    // itself and counts its matches as the candidates.
    expect(body.credits_charged).toBe(2 + (scaledShape() ? Math.ceil(body.total / 500) : 2));
  });

  it("applies on /top-headlines and /stories too", async () => {
    const expected = articles.filter((a) => cities(a).some((c) => km(PARIS, c) <= 50)).length;
    expect((await get(`/top-headlines?near=48.8566,2.3522&radius_km=50&${SAMPLE_WINDOW}`)).total).toBe(expected);
    const stories = await json<{ total: number; stories: unknown[] }>(
      await server.get(`/stories?near=48.8566,2.3522&radius_km=50&${SAMPLE_WINDOW}`),
    );
    expect(stories.total).toBeGreaterThan(0);
    expect(stories.total).toBeLessThanOrEqual(expected);
  });
});

describe("bbox", () => {
  it("matches cities inside the box", async () => {
    // The Netherlands.
    const box = { south: 50.75, west: 3.35, north: 53.55, east: 7.23 };
    const expected = articles.filter((a) =>
      cities(a).some(
        (c) =>
          (c.latitude as number) >= box.south &&
          (c.latitude as number) <= box.north &&
          (c.longitude as number) >= box.west &&
          (c.longitude as number) <= box.east,
      ),
    );
    const body = await get(`/search?bbox=50.75,3.35,53.55,7.23&${SAMPLE_WINDOW}&limit=100`);
    expect(body.total).toBe(expected.length);
    for (const hit of body.results) expect(hit.matched_locations?.[0]?.distance_km).toBeUndefined();
  });

  it("crosses the antimeridian when west is greater than east", async () => {
    const suva = articles.filter((a) => cities(a).some((c) => c.name.startsWith("Suva,")));
    expect(suva.length).toBeGreaterThan(0);
    const across = await get(`/search?bbox=-19,178,-17,-179&${SAMPLE_WINDOW}&limit=100`);
    expect(across.results.map((r) => r.id).sort()).toEqual(suva.map((a) => a.id).sort());
    expect(across.results[0]?.matched_locations?.[0]?.name).toMatch(/^Suva/);
    expect((await get(`/search?bbox=-19,-180,-17,-179&${SAMPLE_WINDOW}`)).total).toBe(0);
  });

  const inside = (box: { south: number; west: number; north: number; east: number }) =>
    articles.filter((a) =>
      cities(a).some((c) => {
        const lat = c.latitude as number;
        const lon = c.longitude as number;
        const lonIn = box.west <= box.east ? lon >= box.west && lon <= box.east : lon >= box.west || lon <= box.east;
        return lat >= box.south && lat <= box.north && lonIn;
      }),
    );

  it("answers a box the size of a country, and one across the antimeridian, at a coarser cell precision", async () => {
    // France: about 1,900 geohash cells of precision 4, 80 of precision 3.
    const france = inside({ south: 42, west: -5, north: 51, east: 8 });
    expect(france.length).toBeGreaterThan(20);
    const body = await get(`/search?bbox=42,-5,51,8&${SAMPLE_WINDOW}&limit=100`);
    expect(body.total).toBe(france.length);
    expect(body.coverage).toBe("complete");
    // New Zealand and the sea east of it, 20 degrees each way across the antimeridian.
    const nz = inside({ south: -50, west: 170, north: -30, east: -170 });
    expect(nz.length).toBeGreaterThan(0);
    const across = await get(`/search?bbox=-50,170,-30,-170&${SAMPLE_WINDOW}&limit=100`);
    expect(across.results.map((r) => r.id).sort()).toEqual(nz.map((a) => a.id).sort());
    // The whole globe is 32 cells of precision 1; the box the other way round from Fiji is nearly all of it.
    const everywhere = inside({ south: -90, west: -180, north: 90, east: 180 }).length;
    expect((await get(`/search?bbox=-90,-180,90,180&${SAMPLE_WINDOW}`)).total).toBe(everywhere);
    expect((await get(`/search?bbox=-19,-179,-17,178&${SAMPLE_WINDOW}`)).total).toBe(
      inside({ south: -19, west: -179, north: -17, east: 178 }).length,
    );
  });
});

describe("amount_min, amount_max", () => {
  it("needs one amount within every bound, of amount_object when given", async () => {
    const within = (a: ArticleDetail, min: number, max: number, object?: string) =>
      a.amounts.some(
        (m) =>
          m.number !== null && m.number >= min && m.number <= max && (object === undefined || m.object.toLowerCase() === object),
      );
    const expected = articles.filter((a) => within(a, 1000, 5000));
    expect(expected.length).toBeGreaterThan(0);
    const body = await get(`/search?amount_min=1000&amount_max=5000&${SAMPLE_WINDOW}&limit=100`);
    expect(body.total).toBe(expected.length);
    expect(body.results.map((r) => r.id).sort()).toEqual(
      expected
        .map((a) => a.id)
        .sort()
        .slice(0, 100),
    );
    // One amount must satisfy both: an article with 10 and 10,000 only does not match 1,000 to 5,000.
    const object = "people";
    const ofObject = articles.filter((a) => within(a, 100, Infinity, object));
    expect(ofObject.length).toBeGreaterThan(0);
    expect((await get(`/search?amount_min=100&amount_object=People&${SAMPLE_WINDOW}`)).total).toBe(ofObject.length);
    expect((await get(`/stories?amount_min=1000&amount_max=5000&${SAMPLE_WINDOW}`)).total).toBeGreaterThan(0);
  });

  it("never matches an amount whose number does not parse", async () => {
    const september = "from=2023-09-01&to=2023-09-30";
    expect((await get(`/search?amount_object=dollars&${september}`)).total).toBe(1);
    expect((await get(`/search?amount_min=0&${september}`)).total).toBe(0);
    expect((await get(`/search?amount_max=1000000000&amount_object=dollars&${september}`)).total).toBe(0);
  });
});

describe("refusals", () => {
  it.each([
    ["near=48.8,2.3", "radius_km"],
    ["radius_km=5", "near"],
    ["near=48.8,2.3&radius_km=0.05", "0.1 to 2000"],
    ["near=48.8,2.3&radius_km=2001", "0.1 to 2000"],
    ["near=98.8,2.3&radius_km=5", "latitude"],
    ["near=48.8,200&radius_km=5", "longitude"],
    ["near=paris&radius_km=5", "latitude,longitude"],
    ["near=48.8,2.3&radius_km=5&bbox=1,1,2,2", "cannot be combined"],
    ["bbox=2,1,1,2", "south"],
    ["bbox=1,2,3", "south,west,north,east"],
    ["amount_min=10&amount_max=5", "above"],
    ["amount_min=-1", "at least 0"],
    ["near=48.8,2.3&radius_km=5&cursor=start", "cursor"],
    ["bbox=1,1,2,2&cursor=start", "cursor"],
    ["amount_min=1&cursor=start", "cursor"],
    ["amount_max=1&cursor=start", "cursor"],
  ])("refuses %s as invalid_parameter", async (query, hint) => {
    const error = await expectError(await server.get(`/search?${query}`), 400, "invalid_parameter");
    expect(error.detail).toContain(hint);
  });
});

describe("candidate batches (rule 6)", () => {
  it("checks 2,000 of 2,600 candidates: approximate total and facets, has_more false when they run out, 4 batches charged", async () => {
    const window = "from=2023-08-01&to=2023-08-31";
    const washington = { latitude: 38.8951, longitude: -77.0364 };
    const rows = await readArticles([SAMPLE_FILES.batch2023]);
    const near = (a: ArticleDetail) => cities(a).some((c) => km(washington, c) <= 30);
    // The copies cycle through the 951 records; the first 2,000 by id order (descending) are checked.
    const body = await get(`/search?near=38.8951,-77.0364&radius_km=30&${window}&facets=language&limit=100`);
    const share = rows.filter(near).length / rows.length;
    if (scaledShape()) {
      // Base 1 + a batch per 500 matches + 1 for the derived-field check.
      expect(body.credits_charged).toBe(2 + Math.ceil(Math.min(body.total, 2000) / 500));
      // The scaled shape's engine matches the area itself over every article, however many: nothing is left
      // unchecked, so the total is exact and paging reaches every match (rule 4: approximate only when candidates
      // outnumber what is checked).
      const exact = 2600 * (rows.filter(near).length / rows.length);
      expect(body.total_relation).toBe("exact");
      expect(body.facets?.language?.approximate).toBe(false);
      expect(Math.abs(body.total - exact)).toBeLessThanOrEqual(rows.filter(near).length);
      let seenAll = 0;
      for (let offset = 0; ; offset += 100) {
        const page = await get(`/search?near=38.8951,-77.0364&radius_km=30&${window}&limit=100&offset=${offset}`);
        seenAll += page.results.length;
        if (!page.has_more) break;
      }
      expect(seenAll).toBe(body.total);
      return;
    }
    // Base 1 + 4 batches + 1 for the derived-field check.
    expect(body.credits_charged).toBe(6);
    expect(body.total_relation).toBe("approximate");
    expect(body.facets?.language?.approximate).toBe(true);
    expect(body.total).toBeGreaterThan(2600 * share * 0.8);
    expect(body.total).toBeLessThan(2600 * share * 1.2);
    // Paging ends with the checked candidates that passed, below the estimated total.
    let offset = 0;
    let seen = 0;
    for (;;) {
      const page = await get(`/search?near=38.8951,-77.0364&radius_km=30&${window}&limit=100&offset=${offset}`);
      seen += page.results.length;
      if (!page.has_more) break;
      offset += 100;
    }
    expect(seen).toBeLessThan(body.total);
    expect(seen).toBeGreaterThan(0);
    const stories = await json<{ total_relation: string }>(
      await server.get(`/stories?near=38.8951,-77.0364&radius_km=30&${window}`),
    );
    expect(stories.total_relation).toBe("approximate");
  });
});
