import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import type { ExportPosition } from "../../src/ports/article-export.js";
import { toArticle } from "../../src/domain/article.js";
import { readArticles, realRows, tieGroup, writeGkgFile } from "../support/gkg-fixtures.js";
import { sampleOpenSearchIndex, type TestOpenSearch } from "../support/opensearch.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The export walk over OpenSearch: a point in time, counted once, paged newest
// first by search_after, blind to what is written after it opened.

describe("OpenSearch index: export walk", () => {
  let node: TestOpenSearch;
  let index: OpenSearchIndex;
  let articles: ArticleDetail[];
  const newestFirst = (list: readonly ArticleDetail[]) =>
    [...list].sort((a, b) =>
      a.published_at === b.published_at ? (a.id < b.id ? 1 : -1) : (a.published_at ?? "") < (b.published_at ?? "") ? 1 : -1,
    );

  beforeAll(async () => {
    ({ node, index, articles } = await sampleOpenSearchIndex());
  });

  afterAll(async () => {
    await node?.dispose();
  });

  async function drain(walk: Awaited<ReturnType<OpenSearchIndex["openExport"]>>, from: ExportPosition | null) {
    const rows: Array<ExportPosition & { line: string }> = [];
    let start: ExportPosition | null = from;
    const decoder = new TextDecoder();
    for (let guard = 0; guard < 1000; guard++) {
      const batch = await walk.next(start, 97);
      expect(batch.partitionsFailed).toEqual([]);
      if (batch.rows.length === 0) break;
      batch.rows.forEach((row, i) => {
        const begin = i === 0 ? 0 : (batch.lines.ends[i - 1] as number);
        rows.push({ ...row, line: decoder.decode(batch.lines.bytes.subarray(begin, batch.lines.ends[i])) });
      });
      const last = batch.rows[batch.rows.length - 1] as ExportPosition;
      start = { published_at: last.published_at, id: last.id };
    }
    return rows;
  }

  it("walks every match once, newest first, each a line of its view, and ignores what is written after it opened", async () => {
    const walk = await index.openExport({ filters: {}, after: null, view: "full" }, 5000);
    try {
      expect(walk.count).toMatchObject({ total: articles.length, remaining: articles.length, largeTieGroups: [] });
      expect(walk.count.partitionsFailed).toEqual([]);
      // Written while the export runs: a month of its own, newer than every other article.
      const dir = mkdtempSync(join(tmpdir(), "newsindex-export-"));
      try {
        const late = await readArticles([
          writeGkgFile(dir, "late.csv", tieGroup(realRows().slice(0, 3), 3, "20991231000000", "LATE")),
        ]);
        await index.write(late);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const rows = await drain(walk, null);
      expect(rows.map((r) => r.id)).toEqual(newestFirst(articles).map((a) => a.id));
      const sample = articles[77] as ArticleDetail;
      // Each line the article in the full view, ending in a newline.
      const line = rows.find((r) => r.id === sample.id)?.line ?? "";
      expect(line.endsWith("\n")).toBe(true);
      expect(JSON.parse(line)).toEqual(toArticle(sample));
    } finally {
      await walk.close();
    }
    const after = await index.openExport({ filters: {}, after: null, view: "full" }, 5000);
    expect(after.count.total).toBe(articles.length + 3);
    await after.close();
  });

  it("counts what is left after a position and the timestamps holding more than a tie group", async () => {
    const english = newestFirst(articles.filter((a) => a.language === "eng"));
    const at = english[40] as ArticleDetail;
    const position = { published_at: at.published_at as string, id: at.id };
    const limit = 3;
    // The window leaves out what the first test wrote late.
    const walk = await index.openExport(
      { filters: { language: "eng", to: "20981231235959" }, after: position, view: "compact" },
      limit,
    );
    try {
      expect(walk.count.total).toBe(english.length);
      expect(walk.count.remaining).toBe(english.length - 41);
      const byStamp = new Map<string, ArticleDetail[]>();
      for (const a of english) byStamp.set(a.published_at as string, [...(byStamp.get(a.published_at as string) ?? []), a]);
      const expected = [...byStamp]
        .filter(([stamp, group]) => stamp <= position.published_at && group.length > limit)
        .map(([stamp, group]) => ({
          published_at: stamp,
          matches: group.length,
          sent: stamp === position.published_at ? group.filter((a) => a.id >= position.id).length : 0,
        }));
      expect(expected.length).toBeGreaterThan(0);
      expect(walk.count.largeTieGroups).toEqual(expected);
      const rows = await drain(walk, position);
      expect(rows.map((r) => r.id)).toEqual(english.slice(41).map((a) => a.id));
      expect(Object.keys(JSON.parse(rows[0]?.line ?? "{}"))).toEqual([
        "id",
        "title",
        "url",
        "source",
        "published_at",
        "language",
        "story_id",
      ]);
    } finally {
      await walk.close();
    }
  });
});
