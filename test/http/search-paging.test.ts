import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realRows, tieGroup, writeGkgFile } from "../support/gkg-fixtures.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";

// Paging (spec section 4, Pagination): offset and limit on any query; cursor
// paging of newest-first browses, disjoint even through tie groups larger than
// a page, and the 5,000-per-timestamp limit.

interface Body {
  results: Array<{ id: string; published_at: string }>;
  total: number;
  total_relation: string;
  offset: number;
  limit: number;
  has_more: boolean;
  next_cursor?: string;
  partial: boolean;
  coverage: string;
  credits_charged: number;
}

async function get(server: TestServer, path: string): Promise<Body> {
  const response = await server.get(path);
  expect(response.status, path).toBe(200);
  const body = await json<Body>(response);
  expect(response.headers.get("x-credits-charged")).toBe(String(body.credits_charged));
  return body;
}

/** Follows next_cursor from `cursor=start` to the end; returns every page. */
async function allPages(server: TestServer, base: string): Promise<Body[]> {
  const pages: Body[] = [];
  let cursor = "start";
  for (let guard = 0; guard < 200; guard++) {
    const page = await get(server, `${base}&cursor=${encodeURIComponent(cursor)}`);
    pages.push(page);
    if (page.next_cursor === undefined) {
      expect(page.has_more).toBe(false);
      return pages;
    }
    expect(page.has_more).toBe(true);
    cursor = page.next_cursor;
  }
  throw new Error("cursor paging did not end");
}

function inBrowseOrder(results: Body["results"]): boolean {
  return results.every(
    (cur, i) =>
      i === 0 ||
      (results[i - 1] as Body["results"][number]).published_at > cur.published_at ||
      ((results[i - 1] as Body["results"][number]).published_at === cur.published_at &&
        (results[i - 1] as Body["results"][number]).id > cur.id),
  );
}

describe("offset paging", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("pages a keyword search without overlap, exact total, has_more ending", async () => {
    const all = await get(server, "/search?q=police&limit=100");
    expect(all.total_relation).toBe("exact");
    const ids: string[] = [];
    for (let offset = 0; offset < all.total; offset += 7) {
      const page = await get(server, `/search?q=police&limit=7&offset=${offset}`);
      expect(page.offset).toBe(offset);
      expect(page.has_more).toBe(offset + 7 < all.total);
      ids.push(...page.results.map((h) => h.id));
    }
    expect(ids).toEqual(all.results.map((h) => h.id).slice(0, ids.length));
    expect(new Set(ids).size).toBe(all.total);
  });

  it("answers an offset past the end with no results and has_more false", async () => {
    const body = await get(server, "/search?language=fra&offset=5000");
    expect(body.results).toEqual([]);
    expect(body.has_more).toBe(false);
    expect(body.total).toBeGreaterThan(0);
    expect(body.credits_charged).toBe(6);
  });

  it("charges 1 credit per full 1,000 rows of offset", async () => {
    expect((await get(server, "/search?offset=999&limit=1")).credits_charged).toBe(1);
    expect((await get(server, "/search?offset=1000&limit=1")).credits_charged).toBe(2);
    expect((await get(server, "/top-headlines?offset=1000&limit=1")).credits_charged).toBe(2);
  });
});

describe("cursor paging", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("walks the whole browse in order, each article once, through a tie group larger than a page", async () => {
    const pages = await allPages(server, "/search?limit=100");
    const ids = pages.flatMap((p) => p.results.map((h) => h.id));
    expect(ids.length).toBe(server.ingest.inserted);
    expect(new Set(ids).size).toBe(ids.length);
    const results = pages.flatMap((p) => p.results);
    expect(inBrowseOrder(results)).toBe(true);
    // The 2023 batch: hundreds of articles without a precise time share published_at 20230702153000.
    const tied = results.filter((h) => h.published_at === "20230702153000").length;
    expect(tied).toBeGreaterThan(300);
    // Offset paging sees the same order.
    const byOffset: string[] = [];
    for (let offset = 0; offset < ids.length; offset += 100) {
      byOffset.push(...(await get(server, `/search?limit=100&offset=${offset}`)).results.map((h) => h.id));
    }
    expect(ids).toEqual(byOffset);
    for (const page of pages) {
      expect(page.total).toBe(server.ingest.inserted);
      expect(page.coverage).toBe("complete");
      expect(page.offset).toBe(0);
    }
  });

  it("pages inside one timestamp with pages smaller than the group", async () => {
    const base = "/top-headlines?from=20230702153000&to=20230702153000&limit=25";
    const pages = await allPages(server, base);
    const results = pages.flatMap((p) => p.results);
    expect(results.length).toBe(pages[0]?.total);
    expect(results.length).toBeGreaterThan(100);
    expect(new Set(results.map((h) => h.id)).size).toBe(results.length);
    expect(inBrowseOrder(results)).toBe(true);
  });

  it("keeps the filters: a filtered cursor browse equals the filtered offset browse", async () => {
    const pages = await allPages(server, "/search?language=eng&publisher_country=US&limit=40");
    const ids = pages.flatMap((p) => p.results.map((h) => h.id));
    const all = await get(server, `/search?language=eng&publisher_country=US&limit=100`);
    expect(ids.length).toBe(all.total);
    expect(ids.slice(0, 100)).toEqual(all.results.map((h) => h.id));
  });

  it("prices pages by what they took: 1 or 2 for the first, 1 to 3 for a later one", async () => {
    const first = await get(server, "/search?limit=10&cursor=start");
    expect(first.credits_charged).toBe(1);
    const firstWithFacets = await get(server, "/search?limit=10&cursor=start&facets=source");
    expect(firstWithFacets.credits_charged).toBe(2);
    // Resuming inside the 2023 tie group takes one more credit.
    const window = "from=20230702153000&to=20230702153000";
    const a = await get(server, `/search?${window}&limit=10&cursor=start`);
    const b = await get(server, `/search?${window}&limit=10&cursor=${a.next_cursor}`);
    expect(b.credits_charged).toBe(2);
    const c = await get(server, `/search?${window}&limit=10&facets=language&cursor=${b.next_cursor}`);
    expect(c.credits_charged).toBe(3);
    // A later page that starts on a new timestamp is back to 1.
    const sparse = await get(server, "/search?language=vie&limit=1&cursor=start");
    const next = await get(server, `/search?language=vie&limit=1&cursor=${sparse.next_cursor}`);
    expect([1, 2]).toContain(next.credits_charged);
  });

  it.each([
    ["q=police&cursor=start", "'q'"],
    ["cursor=start&offset=0", "'offset'"],
    ["cursor=start&offset=10", "'offset'"],
    ["cursor=not-a-cursor", "not a cursor this server issued"],
    ["cursor=eyJ2IjoxfQ", "not a cursor this server issued"],
  ])("refuses %s as invalid_parameter", async (query, hint) => {
    for (const path of ["/search", "/top-headlines"]) {
      if (path === "/top-headlines" && query.startsWith("q=")) continue;
      const response = await server.get(`${path}?${query}`);
      expect(response.status).toBe(400);
      const body = await json<{ code: string; detail: string }>(response);
      expect(body.code).toBe("invalid_parameter");
      expect(body.detail).toContain(hint);
    }
  });

  it("refuses a cursor replayed with other filters or another window", async () => {
    const first = await get(server, "/search?language=eng&limit=5&cursor=start");
    const cursor = encodeURIComponent(first.next_cursor as string);
    expect((await server.get(`/search?language=eng&limit=50&cursor=${cursor}`)).status).toBe(200);
    for (const changed of ["language=fra", "language=eng&source=thehill.com", "language=eng&from=2020-01-01", ""]) {
      const response = await server.get(`/search?${changed}&limit=5&cursor=${cursor}`);
      expect(response.status, changed).toBe(400);
      const body = await json<{ code: string; detail: string }>(response);
      expect(body.code).toBe("invalid_parameter");
      expect(body.detail).toContain("other filters");
    }
  });
});

describe("a timestamp holding more than 5,000 matching articles", () => {
  let server: TestServer;
  let dir: string;
  const GROUP = 5_150;
  const OLDER = 30;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "newsindex-ties-"));
    const rows = realRows();
    const file = writeGkgFile(dir, "ties.gkg.csv", [
      ...tieGroup(rows, GROUP, "20240105120000", "G"),
      ...tieGroup(rows, OLDER, "20240105114500", "O"),
    ]);
    server = await startTestServer({ files: [file] });
  }, 240_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves its first 5,000 articles by id, then a partial page marked range_too_wide that goes on with older ones", async () => {
    const pages = await allPages(server, "/search?limit=100");
    const results = pages.flatMap((p) => p.results);
    const group = results.filter((h) => h.published_at === "20240105120000");
    const older = results.filter((h) => h.published_at === "20240105114500");
    expect(group).toHaveLength(5_000);
    expect(older).toHaveLength(OLDER);
    expect(new Set(results.map((h) => h.id)).size).toBe(results.length);
    expect(inBrowseOrder(results)).toBe(true);
    // The 5,000 served are the group's first by id, descending.
    const allGroupIds = Array.from({ length: GROUP }, (_, i) => `20240105120000-G${i}`)
      .sort()
      .reverse();
    expect(group.map((h) => h.id)).toEqual(allGroupIds.slice(0, 5_000));
    // Exactly one page says so: the one where the rest of the timestamp was skipped.
    const flagged = pages.filter((p) => p.coverage === "range_too_wide");
    expect(flagged).toHaveLength(1);
    expect(flagged[0]?.partial).toBe(true);
    expect(flagged[0]?.results.every((h) => h.published_at === "20240105114500")).toBe(true);
    for (const page of pages.filter((p) => p.coverage !== "range_too_wide")) expect(page.partial).toBe(false);
    // total still counts every match; offset paging can reach them all.
    expect(pages[0]?.total).toBe(GROUP + OLDER);
    const deep = await get(server, "/search?limit=100&offset=5100");
    expect(deep.results).toHaveLength(80);
    expect(deep.coverage).toBe("complete");
  });

  it.each(["/search", "/top-headlines"])(
    "%s: when nothing older is in the window, the last page says range_too_wide (the skipped tail is never hidden)",
    async (path) => {
      // The window holds the oversized timestamp only; pages of 100 end exactly on its 5,000th article.
      const pages = await allPages(server, `${path}?from=20240105120000&limit=100`);
      const results = pages.flatMap((p) => p.results);
      expect(results).toHaveLength(5_000);
      expect(pages[0]?.total).toBe(GROUP);
      const last = pages[pages.length - 1];
      expect(last?.has_more).toBe(false);
      expect(last?.partial).toBe(true);
      expect(last?.coverage).toBe("range_too_wide");
      // Only that page says so.
      expect(pages.filter((p) => p.coverage !== "complete")).toHaveLength(1);
      // A page size that does not divide 5,000 flags the page holding the 5,000th article, as before.
      const odd = await allPages(server, `${path}?from=20240105120000&limit=96`);
      expect(odd.flatMap((p) => p.results)).toHaveLength(5_000);
      expect(odd.filter((p) => p.coverage === "range_too_wide")).toEqual([odd[odd.length - 1]]);
    },
    120_000,
  );
});
