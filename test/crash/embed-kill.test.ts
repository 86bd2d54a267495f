import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, spawnCli, waitUntil } from "../support/cli-process.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import { EMBED_STEP } from "../../src/usecases/embedding/embedding-catch-up.js";

// kill -9 of a real `newsindex embed` part way, then `newsindex embed` again:
// it resumes after the last stored step, and every article ends with exactly
// one vector. The smallest index that shows it: one embedding step
// (EMBED_STEP articles) stored before the kill and one after.

/** Lines of the 2023 sample: two steps, one stored before the kill and the other after it. */
const ARTICLES = 2 * EMBED_STEP;

let dir: string;
const dbPath = (): string => join(dir, "index", "articles-202307.db");

function counts(): { articles: number; vectors: number } {
  const db = new Database(dbPath(), { readonly: true, fileMustExist: true });
  try {
    const articles = db.prepare("SELECT count(*) FROM articles").pluck().get() as number;
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'article_vectors'").pluck().get();
    const vectors = table === undefined ? 0 : (db.prepare("SELECT count(*) FROM article_vectors").pluck().get() as number);
    return { articles, vectors };
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-crash-embed-"));
  const lines = gunzipSync(readFileSync(SAMPLE_FILES.batch2023)).toString("utf8").split("\n");
  const file = join(dir, "20230702153000.gkg.csv");
  writeFileSync(file, lines.slice(0, ARTICLES).join("\n"));
  // The ingest prepares the data dir (in process); the kills are of `newsindex embed` processes.
  expect((await runCli(["ingest", "--data-dir", dir, file])).status).toBe(0);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("newsindex embed killed part way", () => {
  it("resumes where it stopped and embeds every article once", async () => {
    const first = spawnCli(["embed", "--data-dir", dir]);
    let alive = true;
    void first.exited.then(() => (alive = false));
    await waitUntil(() => counts().vectors >= EMBED_STEP, {
      timeoutMs: 60_000,
      everyMs: 50,
      alive: () => alive,
      describe: () => `embed never stored ${EMBED_STEP} vectors: ${first.stderr()}`,
    });
    first.child.kill("SIGKILL");
    await first.exited;
    const killed = counts();
    expect(killed.vectors).toBeGreaterThanOrEqual(EMBED_STEP);
    expect(killed.articles).toBe(ARTICLES);
    expect(killed.vectors).toBeLessThan(killed.articles);

    const again = spawnCli(["embed", "--data-dir", dir]);
    expect((await again.exited).code).toBe(0);
    expect(again.stdout()).toContain(`embedded ${killed.articles - killed.vectors} articles`);
    expect(counts()).toEqual({ articles: killed.articles, vectors: killed.articles });

    const nothingLeft = spawnCli(["embed", "--data-dir", dir]);
    expect((await nothingLeft.exited).code).toBe(0);
    expect(nothingLeft.stdout()).toContain("embedded 0 articles");
  }, 180_000);
});
