import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JUDGED_QUERIES } from "../../eval/search/judged-set.js";
import { semanticText } from "../../src/domain/semantic-query.js";
import { catchUpEmbeddings } from "../../src/usecases/embedding/embedding-catch-up.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// Semantic ranking through each monthly index's nearest-neighbour graph
// (adapters/sqlite/partition-ann.ts), on the real sample embedded with the
// shipped model. `graph` uses the graph for every query (its threshold set to
// 0); `exact` serves the same data dir with the graph never used (the exact
// scan), so the two answers can be compared.

type Body = Record<string, unknown>;
type Hit = { id: string; source: string | null; publisher_country: string | null; published_at: string; score: number };

let graph: TestServer;
let exact: TestServer;
/** Kept across the restart below; removed at the end. */
const dataDir = mkdtempSync(join(tmpdir(), "newsindex-graph-"));
const MONTH = "202307";
/** Articles in the graph of the test of vectors stored after it. */
const GRAPHED = 128;

const annFile = (server: TestServer): string => join(server.dataDir, "index", `articles-${MONTH}.ann`);
const annMeta = (server: TestServer): string => `${annFile(server).slice(0, -4)}.ann.json`;

async function get(server: TestServer, path: string): Promise<Body> {
  const response = await server.get(path);
  expect(response.status).toBe(200);
  return json(response);
}

const ids = (body: Body): string[] => ((body.results ?? body.stories) as Array<{ id: string }>).map((h) => h.id);

beforeAll(async () => {
  graph = await startTestServer({
    dataDir,
    files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016],
    embed: true,
    config: { annMinMatches: 0 },
  });
  exact = await startTestServer({ dataDir, files: [], config: { annMinMatches: 1_000_000_000 } });
});

afterAll(async () => {
  await exact?.close();
  await graph?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the graph path", () => {
  it("the embedding stage wrote a graph beside each embedded monthly index", () => {
    expect(existsSync(annFile(graph))).toBe(true);
    const meta = JSON.parse(readFileSync(annMeta(graph), "utf8")) as { vectors: number; bytes: number };
    expect(meta.vectors).toBeGreaterThan(900);
    expect(statSync(annFile(graph)).size).toBe(meta.bytes);
  });

  it("answers from the graph (it scores only what it returns) the same top 10 as the exact scan", async () => {
    const { embedder } = graph.container;
    let same = 0;
    let total = 0;
    for (const query of JUDGED_QUERIES) {
      const [vector] = await embedder.embed([semanticText(query.q) || query.q], "query");
      const near = { vector: vector as Float32Array, model: embedder.model, filters: { from: "2023-07-01" }, k: 10 };
      const fromGraph = await graph.container.index.nearest(near);
      const scanned = await exact.container.index.nearest(near);
      expect(fromGraph.scored).toBeLessThan(scanned.scored);
      const truth = new Set(scanned.hits.map((h) => h.id));
      same += fromGraph.hits.filter((h) => truth.has(h.id)).length;
      total += scanned.hits.length;
    }
    expect(same / total).toBeGreaterThanOrEqual(0.95);
  });

  it("semantic, hybrid and /similar answers match the exact scan's", async () => {
    for (const path of [
      `/search?q=${encodeURIComponent("gunfire at a neighbourhood celebration in Maryland")}&mode=semantic`,
      `/search?q=${encodeURIComponent("lawmakers reject the budget")}&mode=semantic&limit=20`,
      `/search?q=baltimore+shooting&mode=hybrid`,
      `/stories?q=${encodeURIComponent("wildfire smoke")}&mode=semantic`,
    ]) {
      const a = await get(graph, path);
      const b = await get(exact, path);
      expect(ids(a)).toEqual(ids(b));
      expect(a).toMatchObject({ total: b.total, total_relation: "approximate", partial: false });
    }
    const seed = ids(await get(exact, "/search?q=%22block+party%22+baltimore&limit=1"))[0] as string;
    expect(ids(await get(graph, `/similar/${seed}`))).toEqual(ids(await get(exact, `/similar/${seed}`)));
  });

  it("applies every filter exactly to what the graph returns", async () => {
    const q = encodeURIComponent("elections and voters");
    for (const [filter, holds] of [
      ["publisher_country=IN", (h: Hit) => h.publisher_country === "IN"],
      ["source=thehindu.com", (h: Hit) => h.source === "thehindu.com"],
      ["from=2023-07-02", (h: Hit) => h.published_at >= "2023-07-02"],
    ] as const) {
      const a = await get(graph, `/search?q=${q}&mode=semantic&${filter}&limit=100`);
      const b = await get(exact, `/search?q=${q}&mode=semantic&${filter}&limit=100`);
      expect((a.results as Hit[]).length).toBeGreaterThan(0);
      for (const hit of a.results as Hit[]) expect(holds(hit)).toBe(true);
      expect(ids(a)).toEqual(ids(b));
      expect(a.total).toBe(b.total);
    }
  });
});

describe("a graph file missing or stale", () => {
  it("is answered by the exact scan, then rebuilt by the embedding stage", async () => {
    const path = `/search?q=${encodeURIComponent("lawmakers reject the budget")}&mode=semantic`;
    const before = ids(await get(exact, path));
    rmSync(annFile(graph));
    expect(ids(await get(graph, path))).toEqual(before);
    await catchUpEmbeddings(graph.container.embeddingStage());
    expect(existsSync(annFile(graph))).toBe(true);

    // A file that is not the one its description names (a write cut short): not used, rebuilt.
    writeFileSync(annFile(graph), "torn");
    expect(ids(await get(graph, path))).toEqual(before);
    await catchUpEmbeddings(graph.container.embeddingStage());
    const meta = JSON.parse(readFileSync(annMeta(graph), "utf8")) as { bytes: number; model: string };
    expect(statSync(annFile(graph)).size).toBe(meta.bytes);

    // Made with another model: not used, rebuilt.
    writeFileSync(annMeta(graph), JSON.stringify({ ...meta, model: "another-model" }));
    expect(ids(await get(graph, path))).toEqual(before);
    await catchUpEmbeddings(graph.container.embeddingStage());
    expect((JSON.parse(readFileSync(annMeta(graph), "utf8")) as { model: string }).model).toBe(meta.model);
    expect(ids(await get(graph, path))).toEqual(before);
  });
});

describe("a restart", () => {
  it("serves the graph written before it without rebuilding it", async () => {
    const path = `/search?q=${encodeURIComponent("gunfire at a neighbourhood celebration in Maryland")}&mode=semantic&limit=20`;
    const answer = ids(await get(graph, path));
    const written = statSync(annFile(graph)).mtimeMs;
    await graph.close();
    graph = await startTestServer({ dataDir, files: [], config: { annMinMatches: 0 } });
    expect(await catchUpEmbeddings(graph.container.embeddingStage())).toBe(0);
    expect(statSync(annFile(graph)).mtimeMs).toBe(written);
    expect(ids(await get(graph, path))).toEqual(answer);
  });
});

describe("vectors stored after the graph file was written", () => {
  it("are compared one by one and merged with the graph's answer", async () => {
    const dir = mkdtempSync(join(tmpdir(), "newsindex-graph-tail-"));
    // The smallest index that shows it: the first lines of the 2023 batch, a graph of the first GRAPHED, the rest after it.
    const file = join(dir, "20230702153000.gkg.csv");
    writeFileSync(file, gunzipSync(readFileSync(SAMPLE_FILES.batch2023)).toString("utf8").split("\n").slice(0, 320).join("\n"));
    const partly = await startTestServer({ dataDir: join(dir, "data"), files: [file], config: { annMinMatches: 0 } });
    try {
      const stage = partly.container.embeddingStage();
      const first = await stage.embedNext(MONTH, GRAPHED);
      // The graph of the first GRAPHED is written; the rest are stored in one step that is not the last, so it stays unwritten.
      await stage.indexVectors(MONTH);
      const rest = first.backlog.articles - first.backlog.embedded;
      expect(rest).toBeGreaterThan(GRAPHED);
      await stage.embedNext(MONTH, rest);
      const meta = JSON.parse(readFileSync(annMeta(partly), "utf8")) as { upTo: number; articles: number };
      expect(meta.articles).toBe(GRAPHED);
      const reference = await startTestServer({
        dataDir: join(dir, "data"),
        files: [],
        config: { annMinMatches: 1_000_000_000 },
      });
      try {
        for (const q of ["gunfire at a neighbourhood celebration in Maryland", "lawmakers reject the budget"]) {
          const path = `/search?q=${encodeURIComponent(q)}&mode=semantic&limit=50`;
          const a = await get(partly, path);
          expect(ids(a)).toEqual(ids(await get(reference, path)));
          expect(a).toMatchObject({ partial: false });
        }
      } finally {
        await reference.close();
      }
    } finally {
      await partly.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
