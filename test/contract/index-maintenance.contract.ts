import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import type { IndexMaintenance, RebuildProgress } from "../../src/ports/index-maintenance.js";
import { readArticles } from "../support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import type { IndexFactory, IndexFixture } from "./index-fixture.js";

// What every IndexMaintenance adapter must do (ports/index-maintenance.ts) on
// indexes written by this version: nothing to rebuild, and reads unchanged.
// Rebuilding an index built before a derived vocabulary is the adapter's own
// test (and test/http/derived-rebuild.test.ts over HTTP).

export function describeIndexMaintenanceContract(name: string, create: IndexFactory<IndexMaintenance>): void {
  describe(`IndexMaintenance contract: ${name}`, () => {
    let fixture: IndexFixture<IndexMaintenance>;
    let articles: ArticleDetail[];

    beforeAll(async () => {
      fixture = await create();
      articles = await readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016]);
      await fixture.index.write(articles);
    });

    afterAll(async () => {
      await fixture.dispose();
    });

    it("finds nothing to rebuild in indexes written with every derived vocabulary, and leaves them as they were", async () => {
      const progress: RebuildProgress[] = [];
      const summary = await fixture.index.rebuildDerived({ onProgress: (p) => progress.push(p) });
      expect(summary).toEqual({ months: [], articles: 0, skipped: [] });
      expect(progress).toEqual([]);
      expect(await fixture.index.count()).toBe(articles.length);
      const sample = articles[7] as ArticleDetail;
      expect(await fixture.index.getArticle(sample.id)).toEqual({ status: "found", article: sample });
    });
  });
}
