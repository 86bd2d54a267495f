import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JUDGED_QUERIES } from "../../eval/search/judged-set.js";
import { decodeVector, encodeVector, dotStored } from "../../src/adapters/sqlite/vector-codec.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { embeddingText } from "../../src/domain/embedding-text.js";
import { semanticText } from "../../src/domain/semantic-query.js";
import { catchUpEmbeddings } from "../../src/usecases/embedding/embedding-catch-up.js";
import { scaledShape } from "../support/test-shape.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// Vectors stored as int8 (adapters/sqlite/vector-codec.ts), on real sample
// articles embedded with the shipped model: they rank what float32 ranks, and
// an index whose vectors were stored as float32 (before int8) still answers,
// then gets an int8 graph.

const MONTH = "202307";
let dir = "";
let dataDir = "";
let dbPath = "";
let server: TestServer;

const ids = (body: Record<string, unknown>): string[] => (body.results as Array<{ id: string }>).map((h) => h.id);
const QUERIES = ["gunfire at a neighbourhood celebration in Maryland", "lawmakers reject the budget", "wildfire smoke"];
const answers = async (s: TestServer): Promise<string[][]> =>
  Promise.all(
    QUERIES.map(async (q) => ids(await json(await s.get(`/search?q=${encodeURIComponent(q)}&mode=semantic&limit=20`)))),
  );

describe.skipIf(scaledShape())("int8 vectors", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "newsindex-int8-"));
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

  it("are what the embedding stage stores: 388 bytes each, the encoding named in meta", () => {
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.prepare("SELECT value FROM meta WHERE key = 'vector_encoding'").pluck().get()).toBe("int8");
      const lengths = db
        .prepare("SELECT DISTINCT length(embedding) FROM article_vectors WHERE embedding IS NOT NULL")
        .pluck()
        .all();
      expect(lengths).toEqual([388]);
    } finally {
      db.close();
    }
  });

  it("rank the same top 10 as float32 for the judged queries (recall >= 0.99, ties counted)", async () => {
    const db = new Database(dbPath, { readonly: true });
    const docs = db.prepare("SELECT d.doc FROM docs d").pluck().all() as string[];
    db.close();
    const texts = [...new Set(docs.map((d) => embeddingText(JSON.parse(d) as ArticleDetail)).filter((t) => t !== ""))];
    const { embedder } = server.container;
    const f32 = await embedder.embed(texts, "passage");
    const int8 = f32.map((v) => encodeVector(v, "int8"));
    const queries = await embedder.embed(
      JUDGED_QUERIES.map((j) => semanticText(j.q) || j.q),
      "query",
    );
    let hits = 0;
    let total = 0;
    for (const q of queries) {
      const exact = f32.map((v, i) => ({ i, score: dotStored(encodeVector(v, "float32"), "float32", q) }));
      exact.sort((a, b) => b.score - a.score);
      const floor = (exact[9]?.score ?? 0) - 1e-6;
      const quantised = int8.map((v, i) => ({ i, score: dotStored(v, "int8", q) }));
      quantised.sort((a, b) => b.score - a.score);
      hits += quantised.slice(0, 10).filter((h) => (exact.find((e) => e.i === h.i)?.score ?? -1) >= floor).length;
      total += 10;
      // The score itself is within a hundredth of float32's.
      for (const h of quantised.slice(0, 10))
        expect(Math.abs(h.score - (exact.find((e) => e.i === h.i)?.score ?? 0))).toBeLessThan(0.01);
    }
    expect(texts.length).toBeGreaterThan(200);
    expect(hits / total).toBeGreaterThanOrEqual(0.99);
  }, 120_000);

  it("an index whose vectors are float32 (stored before int8) still answers, and its graph is rebuilt as int8", async () => {
    const before = await answers(server);
    await server.close();
    // As an earlier build left it: float32 blobs, no encoding in meta, a graph of the earlier format.
    const db = new Database(dbPath);
    const rows = db.prepare("SELECT rowid, embedding FROM article_vectors WHERE embedding IS NOT NULL").all() as Array<{
      rowid: number;
      embedding: Buffer;
    }>;
    const set = db.prepare("UPDATE article_vectors SET embedding = ? WHERE rowid = ?");
    db.transaction(() => {
      for (const r of rows) set.run(encodeVector(decodeVector(r.embedding, "int8"), "float32"), r.rowid);
      db.exec("DELETE FROM meta WHERE key = 'vector_encoding'");
    })();
    db.close();
    const metaPath = dbPath.replace(/\.db$/, ".ann.json");
    writeFileSync(metaPath, JSON.stringify({ ...(JSON.parse(readFileSync(metaPath, "utf8")) as object), format: 2 }));

    server = await startTestServer({ dataDir, files: [], config: { annMinMatches: 0 } });
    // The exact scan answers (the earlier graph is not used) what the int8 index answered.
    expect(await answers(server)).toEqual(before);
    await catchUpEmbeddings(server.container.embeddingStage());
    expect((JSON.parse(readFileSync(metaPath, "utf8")) as { format: number }).format).toBe(3);
    expect(await answers(server)).toEqual(before);
  }, 120_000);
});
