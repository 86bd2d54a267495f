import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JUDGED_QUERIES } from "../../eval/search/judged-set.js";
import { semanticText } from "../../src/domain/semantic-query.js";
import { catchUpEmbeddings } from "../../src/usecases/embedding/embedding-catch-up.js";
import { scaledShape } from "../support/test-shape.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// The nearest-neighbour graph (adapters/sqlite/partition-ann.ts, float32 inner
// product), on real sample articles embedded with the shipped model: it ranks
// what the exact scan ranks, with its scores, and a graph of an earlier format
// (3: int8 components) is answered around, then rebuilt.

const MONTH = "202307";
let dir = "";
let dataDir = "";
let dbPath = "";
const metaPath = (): string => dbPath.replace(/\.db$/, ".ann.json");
let server: TestServer;

const ids = (body: Record<string, unknown>): string[] => (body.results as Array<{ id: string }>).map((h) => h.id);
const QUERIES = ["gunfire at a neighbourhood celebration in Maryland", "lawmakers reject the budget", "wildfire smoke"];
const answers = async (s: TestServer): Promise<string[][]> =>
  Promise.all(
    QUERIES.map(async (q) => ids(await json(await s.get(`/search?q=${encodeURIComponent(q)}&mode=semantic&limit=20`)))),
  );

describe.skipIf(scaledShape())("the nearest-neighbour graph's format", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "newsindex-graph-format-"));
    dataDir = join(dir, "data");
    dbPath = join(dataDir, "index", `articles-${MONTH}.db`);
    // The first 400 lines of the 2023 batch: enough articles for rankings to differ, few enough to embed quickly.
    const file = join(dir, "20230702153000.gkg.csv");
    writeFileSync(file, gunzipSync(readFileSync(SAMPLE_FILES.batch2023)).toString("utf8").split("\n").slice(0, 400).join("\n"));
    server = await startTestServer({ dataDir, files: [file], embed: true, config: { annMinMatches: 0 } });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
  });

  it("the graph holds the float32 vectors themselves: format 4, at least 384 x 4 bytes a node", () => {
    const meta = JSON.parse(readFileSync(metaPath(), "utf8")) as { format: number; vectors: number; bytes: number };
    expect(meta.format).toBe(4);
    expect(meta.vectors).toBeGreaterThan(200);
    expect(meta.bytes / meta.vectors).toBeGreaterThan(384 * 4);
  });

  it("ranks through the graph the top 10 the exact float32 scan ranks, for the judged queries (recall >= 0.99)", async () => {
    const exact = await startTestServer({ dataDir, files: [], config: { annMinMatches: 1_000_000_000 } });
    try {
      const { embedder } = server.container;
      let hits = 0;
      let total = 0;
      for (const judged of JUDGED_QUERIES) {
        const [vector] = await embedder.embed([semanticText(judged.q) || judged.q], "query");
        const near = { vector: vector as Float32Array, model: embedder.model, filters: {}, k: 10 };
        const fromGraph = await server.container.index.nearest(near);
        const scanned = await exact.container.index.nearest(near);
        expect(fromGraph.scored).toBeLessThan(scanned.scored);
        // The graph scores as the scan does (float32 dot products), so an article tying the exact 10th is as good an answer.
        const floor = (scanned.hits[scanned.hits.length - 1]?.score ?? 1) - 1e-6;
        const truth = new Set(scanned.hits.map((h) => h.id));
        hits += fromGraph.hits.filter((h) => truth.has(h.id) || h.score >= floor).length;
        total += scanned.hits.length;
      }
      expect(hits / total).toBeGreaterThanOrEqual(0.99);
    } finally {
      await exact.close();
    }
  }, 120_000);

  it("a graph of an earlier format (int8) is not used: the exact scan answers, then the stage rebuilds it", async () => {
    const before = await answers(server);
    await server.close();
    writeFileSync(metaPath(), JSON.stringify({ ...(JSON.parse(readFileSync(metaPath(), "utf8")) as object), format: 3 }));
    server = await startTestServer({ dataDir, files: [], config: { annMinMatches: 0 } });
    expect(await answers(server)).toEqual(before);
    await catchUpEmbeddings(server.container.embeddingStage());
    expect((JSON.parse(readFileSync(metaPath(), "utf8")) as { format: number }).format).toBe(4);
    expect(await answers(server)).toEqual(before);
  }, 120_000);
});
