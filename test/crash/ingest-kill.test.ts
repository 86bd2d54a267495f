import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { createContainer, type Container } from "../../src/container.js";
import { toStamp } from "../../src/shared/timestamps.js";
import { spawnCli, waitUntil } from "../support/cli-process.js";
import { realRows, tieGroup, writeGkgFile } from "../support/gkg-fixtures.js";

// kill -9 of a real `newsindex ingest` half way through, then the same ingest
// again: every article is stored once, in the story an uninterrupted ingest
// puts it in.
//
// The data: the first ROWS records of the real 2023 batch in chunks of one ingest batch,
// each chunk collected twice an hour apart and ingested later copy first (a
// backfill). The earlier copy takes the story id (a story is named after its
// earliest member), so clustering it moves the later copy, already written, to
// the new story: the index relabels it after writing the earlier copy. Nothing
// later touches that story again. Two rounds, four days apart (beyond the
// story window) and across a month boundary, make the ingest long enough to
// kill in the middle.
//
// Clustering runs ahead of the index writes (services/ingest): the kill is
// aimed at that window, once stories.db holds a chunk's earlier copy that the
// index does not yet: its relabels are lost with the process.

const BATCH = 100;
/** Records of the real batch used: enough chunks that the kill lands in the middle. */
const ROWS = 500;
const ROUNDS = 2;
const FIRST_ROUND_MS = Date.UTC(2024, 0, 29, 12, 0, 0);
const ROUND_MS = 4 * 86_400_000;
const COPY_GAP_MS = 3_600_000;
/** Kill only once the index holds this many articles: well into the ingest. */
const KILL_AFTER = 600;

let dir: string;
let files: string[];
/** The first article of each chunk's two copies: clustering the earlier one moves the later one. */
let copies: Array<{ earlier: string; later: string }>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-crash-ingest-"));
  const rows = realRows().slice(0, ROWS);
  const gkg = join(dir, "gkg");
  mkdirSync(gkg);
  files = [];
  copies = [];
  for (let round = 0; round < ROUNDS; round++) {
    const earlier = toStamp(FIRST_ROUND_MS + round * ROUND_MS);
    const later = toStamp(FIRST_ROUND_MS + round * ROUND_MS + COPY_GAP_MS);
    for (let chunk = 0; chunk * BATCH < rows.length; chunk++) {
      const part = rows.slice(chunk * BATCH, (chunk + 1) * BATCH);
      const prefix = String.fromCharCode(65 + chunk);
      for (const stamp of [later, earlier])
        files.push(writeGkgFile(gkg, `${stamp}-${prefix}.gkg.csv`, tieGroup(part, part.length, stamp, prefix)));
      copies.push({ earlier: `${earlier}-${prefix}0`, later: `${later}-${prefix}0` });
    }
  }
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function open(dataDir: string): Container {
  return createContainer(loadConfig({}, { dataDir, logLevel: "silent", ingestBatchSize: BATCH }));
}

/** Every stored article's story, by article id, read through the index. */
async function storiesOf(dataDir: string): Promise<{ count: number; storyOf: Map<string, string | null> }> {
  const container = open(dataDir);
  try {
    const count = await container.index.count();
    const result = await container.index.search({ filters: {}, offset: 0, limit: count + 1 });
    expect(result.partitionsFailed).toEqual([]);
    const storyOf = new Map(result.hits.map((hit) => [hit.article.id, hit.article.story_id ?? null]));
    // No article stored twice: the index's own count, the hits and the distinct ids agree.
    expect(result.hits).toHaveLength(count);
    expect(storyOf.size).toBe(count);
    return { count, storyOf };
  } finally {
    await container.close();
  }
}

/**
 * Watches a running ingest: how many articles the index holds, and whether a chunk's earlier copy is clustered
 * (committed to stories.db) but not yet written to the index.
 */
class IngestWatch {
  private readonly index: Container;
  private stories: Database.Database | undefined;
  stored = 0;

  constructor(private readonly dataDir: string) {
    this.index = open(dataDir);
  }

  async clusteredAheadOfIndex(): Promise<boolean> {
    this.stored = await this.index.index.count().catch(() => 0);
    if (this.stored < KILL_AFTER) return false;
    const path = join(this.dataDir, "stories.db");
    if (this.stories === undefined && existsSync(path)) this.stories = new Database(path, { readonly: true });
    const clustered = this.stories?.prepare("SELECT 1 FROM story_articles WHERE id = ?").pluck();
    for (const { earlier: id } of copies) {
      if (clustered?.get(id) === undefined) continue;
      if ((await this.index.index.getArticle(id)).status === "absent") return true;
    }
    return false;
  }

  async close(): Promise<void> {
    this.stories?.close();
    await this.index.close();
  }
}

describe("kill -9 during ingest", () => {
  it("the same ingest run again stores every article once, in the stories of an uninterrupted ingest", async () => {
    const whole = join(dir, "uninterrupted");
    const reference = open(whole);
    try {
      await (await reference.ingestService()).ingest(files);
    } finally {
      await reference.close();
    }
    const expected = await storiesOf(whole);
    expect(expected.count).toBeGreaterThan(ROUNDS * 2 * ROWS * 0.9);
    // The copies joined, in stories named after the earlier copy: clustering moved most of each later copy.
    const earlierOf = new Map(copies.map(({ earlier, later }) => [later.slice(0, 14), earlier.slice(0, 14)]));
    const laterIds = [...expected.storyOf.keys()].filter((id) => earlierOf.has(id.slice(0, 14)));
    const moved = laterIds.filter((id) => expected.storyOf.get(id)?.startsWith(earlierOf.get(id.slice(0, 14)) ?? "-"));
    expect(moved.length).toBeGreaterThan(laterIds.length / 2);

    const dataDir = join(dir, "killed");
    const env = { NEWSINDEX_INGEST_BATCH: String(BATCH) };
    const killed = spawnCli(["ingest", "--data-dir", dataDir, ...files], env);
    const watch = new IngestWatch(dataDir);
    try {
      await waitUntil(() => watch.clusteredAheadOfIndex(), {
        timeoutMs: 60_000,
        everyMs: 5,
        alive: () => killed.child.exitCode === null,
        describe: () =>
          `no kill point: the index holds ${watch.stored} articles; the ingest ${killed.child.exitCode === null ? "still runs" : `ended:\n${killed.stdout()}${killed.stderr()}`}`,
      });
      killed.child.kill("SIGKILL");
    } finally {
      await watch.close();
    }
    expect(await killed.exited).toEqual({ code: null, signal: "SIGKILL" });
    // Killed half way: no summary printed, and part of the articles stored.
    expect(killed.stdout()).not.toContain("ingested");
    const atKill = (await storiesOf(dataDir)).count;
    expect(atKill).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(atKill).toBeLessThan(expected.count);

    const again = spawnCli(["ingest", "--data-dir", dataDir, ...files], env);
    expect(await again.exited).toEqual({ code: 0, signal: null });
    const summary = /ingested (\d+) records \((\d+) new, (\d+) unchanged\)/.exec(again.stdout());
    expect(summary?.slice(2, 4).map(Number)).toEqual([expected.count - atKill, atKill]);

    const resumed = await storiesOf(dataDir);
    expect(resumed.count).toBe(expected.count);
    expect([...resumed.storyOf.keys()].sort()).toEqual([...expected.storyOf.keys()].sort());
    const differing = [...expected.storyOf].filter(([id, story]) => resumed.storyOf.get(id) !== story);
    expect(differing.slice(0, 3), `${differing.length} articles in another story than uninterrupted`).toEqual([]);
  }, 240_000);
});
