import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { realRows, tieGroup, writeGkgFile } from "../../../test/support/gkg-fixtures.js";
import { GkgArticleSource } from "../../adapters/gdelt/gkg-source.js";
import { SqliteIndexBackend } from "../../adapters/sqlite/sqlite-index-backend.js";
import { SqliteStoryStore } from "../../adapters/sqlite/story-store.js";
import { systemClock } from "../../shared/clock.js";
import { StoryClusterer } from "../stories/story-clusterer.js";
import { IngestService } from "./ingest-service.js";

// Ingest again after a crash. Clustering commits a batch's stories before the
// index writes the batch and relabels the articles its merges moved; a crash in
// between leaves those articles in their old story in the index. Ingesting the
// same files again must put them where clustering has them.

const ROWS = 200;
const EARLIER = "20240105120000";
const LATER = "20240105130000";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-ingest-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

it("an article ingested again is moved to its story when the index missed the relabel", async () => {
  const rows = realRows().slice(0, ROWS);
  // A backfill: the later copy first; clustering the earlier copy renames each story after it and moves the later one.
  const files = [
    writeGkgFile(dir, "later.gkg.csv", tieGroup(rows, ROWS, LATER, "P")),
    writeGkgFile(dir, "earlier.gkg.csv", tieGroup(rows, ROWS, EARLIER, "P")),
  ];
  const source = await GkgArticleSource.create();
  const index = new SqliteIndexBackend(join(dir, "data"));
  const store = new SqliteStoryStore(join(dir, "data", "stories.db"));
  const ingest = new IngestService(source, index, 50, systemClock, { clusterer: new StoryClusterer(store), index });
  try {
    await ingest.ingest(files);
    const story = async (id: string) => {
      const found = await index.getArticle(id);
      return found.status === "found" ? found.article.story_id : found.status;
    };
    const moved: string[] = [];
    for (let i = 0; i < ROWS; i++) if ((await story(`${LATER}-P${i}`)) === `${EARLIER}-P${i}`) moved.push(`${LATER}-P${i}`);
    expect(moved.length).toBeGreaterThan(ROWS / 2);

    // What a crash before the relabels leaves: the later copies in the stories they were written in.
    await index.relabel(moved.map((id) => ({ story_id: id, article_ids: [id] })));
    expect(await story(moved[0] as string)).toBe(moved[0]);

    const again = await ingest.ingest(files);
    expect(again.unchanged).toBe(2 * ROWS);
    for (const id of moved) expect(await story(id)).toBe(id.replace(LATER, EARLIER));
  } finally {
    await index.close();
    await store.close();
  }
});
