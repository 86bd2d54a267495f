import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realRows, tieGroup, writeGkgFile } from "../support/gkg-fixtures.js";
import { CLI, ROOT } from "../support/cli-process.js";
import { TestClock } from "../support/test-clock.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { shapeEnv } from "../support/test-shape.js";

// GET /export over HTTP: NDJSON lines reconciled to the /search total by a
// manifest, resumable with resume_after, priced 1 credit per 1,000 rows
// started before the first line, within the plan's reach.

interface Manifest {
  count: number;
  total: number;
  sha256: string;
  coverage: string;
  partial: boolean;
  credits_charged: number;
  next_resume_after: string | null;
  tie_groups_cut: Array<{ published_at: string; matches: number; skipped: number }>;
  history_days: number | null;
  from_clamped: boolean;
  attribution: string;
}

interface Exported {
  status: number;
  headers: Headers;
  /** The article lines as sent, newline included. */
  lines: string[];
  articles: Array<{ id: string; published_at: string; title?: string | null; topics?: string[] }>;
  manifest: Manifest;
}

async function exportOf(server: TestServer, query: string, key?: string): Promise<Exported> {
  const response = await server.get(`/export?${query}`, key);
  const text = await response.text();
  expect(response.status, text.slice(0, 300)).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
  expect(text.endsWith("\n")).toBe(true);
  const all = text.slice(0, -1).split("\n");
  const last = all.pop() as string;
  const manifest = (JSON.parse(last) as { manifest: Manifest }).manifest;
  const lines = all.map((line) => line + "\n");
  return {
    status: response.status,
    headers: response.headers,
    lines,
    articles: lines.map((line) => JSON.parse(line) as Exported["articles"][number]),
    manifest,
  };
}

async function searchTotal(server: TestServer, query: string, key?: string): Promise<number> {
  const response = await server.get(`/search?${query}&limit=1`, key);
  expect(response.status).toBe(200);
  return (await json<{ total: number }>(response)).total;
}

function sha256(lines: readonly string[]): string {
  const hash = createHash("sha256");
  for (const line of lines) hash.update(line);
  return hash.digest("hex");
}

function inExportOrder(articles: Exported["articles"]): boolean {
  return articles.every((cur, i) => {
    const prev = articles[i - 1];
    return (
      prev === undefined || prev.published_at > cur.published_at || (prev.published_at === cur.published_at && prev.id > cur.id)
    );
  });
}

/** Reads `lines` article lines of an export, then drops the connection. */
function readThenDrop(server: TestServer, query: string, lines: number): Promise<{ ids: string[]; charged: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/export?${query}`, { headers: { "x-api-key": server.key } }, (res) => {
      let buffer = "";
      const ids: string[] = [];
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf("\n");
        while (end >= 0 && ids.length < lines) {
          ids.push((JSON.parse(buffer.slice(0, end)) as { id: string }).id);
          buffer = buffer.slice(end + 1);
          end = buffer.indexOf("\n");
        }
        if (ids.length >= lines) {
          req.destroy();
          resolve({ ids, charged: res.headers["x-credits-charged"] as string | undefined });
        }
      });
      res.on("error", () => undefined);
    });
    req.on("error", (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end();
  });
}

let server: TestServer;
const clock = new TestClock(Date.UTC(2020, 2, 10));

beforeAll(async () => {
  server = await startTestServer({ plans: ["free"], clock });
});

afterAll(async () => {
  await server.close();
});

describe("GET /export", () => {
  const queries = ["", "q=trump", "language=eng&from=2020-02-22&to=2020-02-22", "topic=tax_fncact", "source_type=web&q=police"];

  it.each(queries)("sends as many lines as the /search total, each article once, newest first (%s)", async (query) => {
    const total = await searchTotal(server, query);
    const out = await exportOf(server, query);
    expect(total).toBeGreaterThan(0);
    expect(out.manifest.count).toBe(total);
    expect(out.manifest.total).toBe(total);
    expect(out.lines).toHaveLength(total);
    expect(new Set(out.articles.map((a) => a.id)).size).toBe(total);
    expect(inExportOrder(out.articles)).toBe(true);
    expect(out.manifest.sha256).toBe(sha256(out.lines));
    expect(out.manifest).toMatchObject({ partial: false, coverage: "complete", next_resume_after: null, tie_groups_cut: [] });
    expect(out.manifest.attribution).toContain("GDELT");
  });

  it("sends the same articles /search pages through, full Article fields by default and compact ones on request", async () => {
    const search = await json<{ results: Array<{ id: string }> }>(await server.get("/search?q=police&limit=100&offset=0"));
    const out = await exportOf(server, "q=police");
    expect(new Set(out.articles.map((a) => a.id))).toEqual(new Set(search.results.map((r) => r.id)));
    expect(out.articles[0]).toHaveProperty("topics");
    expect(out.articles[0]).not.toHaveProperty("quotes");
    const compact = await exportOf(server, "q=police&view=compact");
    expect(Object.keys(compact.articles[0] ?? {}).sort()).toEqual(
      ["id", "language", "published_at", "source", "story_id", "title", "url"].sort(),
    );
    expect(compact.articles.map((a) => a.id)).toEqual(out.articles.map((a) => a.id));
    // Line for line what a newest-first browse returns, field for field.
    const browse = await json<{ results: unknown[] }>(await server.get("/search?source_type=web&limit=50"));
    expect((await exportOf(server, "source_type=web")).articles.slice(0, 50)).toEqual(browse.results);
  });

  it("charges 1 credit per 1,000 rows started, in the headers sent before the first line and in the manifest", async () => {
    const out = await exportOf(server, "");
    const expected = Math.ceil(out.manifest.count / 1000);
    expect(out.manifest.count).toBeGreaterThan(1000);
    expect(out.manifest.credits_charged).toBe(expected);
    expect(out.headers.get("x-credits-charged")).toBe(String(expected));
    const small = await exportOf(server, "q=police");
    expect(small.manifest.count).toBeLessThan(1000);
    expect(small.headers.get("x-credits-charged")).toBe("1");
    // Nothing matches: the count still ran, 1 credit.
    const none = await exportOf(server, "q=zzzqqqxxyy");
    expect(none.lines).toHaveLength(0);
    expect(none.manifest).toMatchObject({ count: 0, total: 0, credits_charged: 1, sha256: sha256([]) });
  });

  it("shows the exact price with estimate=true, charging nothing, and refuses above max_credits before any line", async () => {
    const count = (await exportOf(server, "")).manifest.count;
    const price = Math.ceil(count / 1000);
    const before = await json<{ credits_used: number }>(await server.get("/account"));
    const estimate = await server.get("/export?estimate=true");
    expect(estimate.status).toBe(200);
    expect(estimate.headers.get("content-type")).toMatch(/^application\/json/);
    const preview = await json<{
      credits: { min: number; max: number };
      rows: number;
      credits_charged: number;
      would_run: boolean;
    }>(estimate);
    expect(preview).toMatchObject({ credits: { min: price, max: price }, rows: count, credits_charged: 0, would_run: true });
    expect(estimate.headers.get("x-credits-charged")).toBe("0");

    const refused = await server.get(`/export?max_credits=${price - 1}`);
    expect(refused.status).toBe(400);
    const body = await json<{ code: string; credits: { max: number }; max_credits: number }>(refused);
    expect(body).toMatchObject({ code: "credit_budget_exceeded", credits: { max: price }, max_credits: price - 1 });
    expect(refused.headers.get("x-credits-charged")).toBe("0");
    const after = await json<{ credits_used: number }>(await server.get("/account"));
    expect(after.credits_used).toBe(before.credits_used);
    expect((await exportOf(server, `max_credits=${price}`)).manifest.count).toBe(count);
  });

  it("resumes right after the last article received: the pieces, concatenated, equal a one-shot export", async () => {
    const whole = await exportOf(server, "language=eng");
    expect(whole.lines.length).toBeGreaterThan(1000);
    const cut = whole.articles[249]?.id as string;
    const rest = await exportOf(server, `language=eng&resume_after=${encodeURIComponent(cut)}`);
    expect([...whole.lines.slice(0, 250), ...rest.lines]).toEqual(whole.lines);
    expect(rest.manifest.count).toBe(whole.lines.length - 250);
    expect(rest.manifest.total).toBe(whole.manifest.total);
    expect(rest.manifest.sha256).toBe(sha256(whole.lines.slice(250)));
    // A resumed piece pays for its own rows only.
    expect(rest.manifest.credits_charged).toBe(Math.ceil(rest.manifest.count / 1000));
  });

  it("keeps to the plan's reach like /search, and says so", async () => {
    const free = server.keys.free as string;
    const total = await searchTotal(server, "from=2015-01-01", free);
    const out = await exportOf(server, "from=2015-01-01", free);
    expect(out.manifest.count).toBe(total);
    expect(out.manifest).toMatchObject({ history_days: 30, from_clamped: true });
    expect(out.headers.get("x-plan-history-days")).toBe("30");
    const boundary = new Date(clock.now() - 30 * 86_400_000).toISOString().replace(/\D/g, "").slice(0, 14);
    for (const article of out.articles) expect(article.published_at >= boundary).toBe(true);
    expect(out.manifest.count).toBeLessThan((await exportOf(server, "")).manifest.count);
  });

  it.each([
    ["limit=10", "unknown_parameter"],
    ["cursor=start", "unknown_parameter"],
    ["mode=semantic&q=x", "unknown_parameter"],
    ["view=tiny", "invalid_parameter"],
    ["from=2020-13-01", "invalid_parameter"],
    ["from=2020-03-01&to=2020-02-01", "invalid_parameter"],
    ["signal=nonsense", "unknown_signal"],
    ["resume_after=", "invalid_parameter"],
    ["resume_after=20990101000000-404", "invalid_parameter"],
    ["max_credits=-1", "invalid_parameter"],
  ])("refuses %s with a 400 %s, charging nothing", async (query, code) => {
    const response = await server.get(`/export?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await json<{ code: string; detail: string }>(response);
    expect(body.code).toBe(code);
    expect(body.detail.length).toBeGreaterThan(10);
    expect(response.headers.get("x-credits-charged")).toBe("0");
  });

  it("answers 401 without a key", async () => {
    expect((await server.get("/export", null)).status).toBe(401);
  });

  it("is not an MCP tool, is in the OpenAPI document, and its price is published", async () => {
    const tools = await json<{ tools: Array<{ name: string }> }>(await server.get("/mcp/tools.json", null));
    expect(tools.tools.map((t) => t.name).some((name) => name.includes("export"))).toBe(false);
    const openapi = await json<{ paths: Record<string, { get?: { responses: Record<string, { content: object }> } }> }>(
      await server.get("/openapi.json", null),
    );
    // The lines, or with estimate=true the price preview (JSON), like every operation's 200.
    expect(Object.keys(openapi.paths["/export"]?.get?.responses["200"]?.content ?? {})).toEqual([
      "application/x-ndjson",
      "application/json",
    ]);
    expect(await (await server.get("/docs/completeness.md", null)).text()).toContain("/export");
    expect(await (await server.get("/docs/mcp.md")).text()).toContain("/export");
  });
});

describe("newsindex export", () => {
  function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
    const result = spawnSync(process.execPath, [...CLI, "export", "--data-dir", server.dataDir, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...shapeEnv(server.config), LOG_LEVEL: "silent", NEWSINDEX_EMBED_IN_SERVER: "off" },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it("writes the lines GET /export sends to stdout, with the same manifest bar the charge", { timeout: 120_000 }, async () => {
    const http = await exportOf(server, "language=eng&q=police");
    const run = cli(["--language", "eng", "--q=police"]);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines.pop()).toBe("");
    const manifest = (JSON.parse(lines.pop() as string) as { manifest: Manifest }).manifest;
    expect(lines.map((line) => line + "\n")).toEqual(http.lines);
    expect(manifest).toMatchObject({ count: http.manifest.count, total: http.manifest.total, sha256: http.manifest.sha256 });
    expect(manifest.credits_charged).toBe(0);
    expect(run.stderr).toContain(`exported ${http.manifest.count} of ${http.manifest.count} articles`);
    // Resumed after the 3rd line: the rest.
    const third = http.articles[2]?.id as string;
    const rest = cli(["--language", "eng", "--q", "police", "--resume-after", third]);
    expect(rest.stdout.split("\n").slice(0, -2)).toEqual(http.lines.slice(3).map((line) => line.slice(0, -1)));
  });

  it("refuses a parameter GET /export does not take, naming it, and writes nothing", { timeout: 120_000 }, () => {
    const run = cli(["--langauge", "eng"]);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("language");
  });
});

describe("GET /export through a timestamp holding more than 5,000 articles", () => {
  let dir: string;
  let ties: TestServer;
  const GROUP = 5_200;
  const OLDER = 40;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "newsindex-export-ties-"));
    const rows = realRows();
    const file = writeGkgFile(dir, "ties.gkg.csv", [
      ...tieGroup(rows, GROUP, "20240105120000", "G"),
      ...tieGroup(rows, OLDER, "20240105114500", "O"),
    ]);
    ties = await startTestServer({ files: [file] });
  }, 120_000);

  afterAll(async () => {
    await ties.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the group's first 5,000, names the cut in the manifest, and prices what it sends", async () => {
    const out = await exportOf(ties, "");
    expect(out.manifest.total).toBe(GROUP + OLDER);
    expect(out.manifest.count).toBe(5_000 + OLDER);
    expect(out.lines).toHaveLength(5_000 + OLDER);
    expect(out.manifest).toMatchObject({
      partial: true,
      coverage: "range_too_wide",
      tie_groups_cut: [{ published_at: "20240105120000", matches: GROUP, skipped: GROUP - 5_000 }],
    });
    expect(out.articles.filter((a) => a.published_at === "20240105114500")).toHaveLength(OLDER);
    expect(out.headers.get("x-credits-charged")).toBe("6");
    expect(out.manifest.credits_charged).toBe(6);
    // Resumed inside the group: the rest of its first 5,000, then the older ones.
    const cut = out.articles[4_499]?.id as string;
    const rest = await exportOf(ties, `resume_after=${encodeURIComponent(cut)}`);
    expect(rest.manifest.count).toBe(500 + OLDER);
    expect([...out.articles.slice(0, 4_500), ...rest.articles].map((a) => a.id)).toEqual(out.articles.map((a) => a.id));
    expect(sha256([...out.lines.slice(0, 4_500), ...rest.lines])).toBe(out.manifest.sha256);
    expect(rest.manifest.credits_charged).toBe(1);
  });

  it("resumes an export the client dropped after a few hundred lines, and charges the dropped one only the rows it started", async () => {
    const whole = await exportOf(ties, "");
    expect(whole.lines.length).toBe(5_040);
    const used = async (): Promise<number> => (await json<{ credits_used: number }>(await ties.get("/account"))).credits_used;
    const before = await used();
    const dropped = await readThenDrop(ties, "", 300);
    expect(dropped.charged).toBe(String(Math.ceil(whole.lines.length / 1000)));
    const last = dropped.ids[dropped.ids.length - 1] as string;
    const rest = await exportOf(ties, `resume_after=${encodeURIComponent(last)}`);
    expect([...dropped.ids, ...rest.articles.map((a) => a.id)]).toEqual(whole.articles.map((a) => a.id));
    // The dropped stream gave back the thousands it never started (the server may have written a batch ahead).
    let charged = 0;
    for (let i = 0; i < 50; i++) {
      charged = (await used()) - before - rest.manifest.credits_charged;
      if (charged < 6) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    // 6 credits were in the headers; the server had written at most a few batches ahead when the client left.
    expect(charged).toBeLessThan(6);
    expect(charged).toBeGreaterThanOrEqual(1);
  });
});
