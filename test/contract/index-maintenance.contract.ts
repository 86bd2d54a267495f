import { describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import type { IndexMaintenance, RebuildProgress } from "../../src/ports/index-maintenance.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import { filledIndex, type IndexFactory } from "./index-fixture.js";

// What every IndexMaintenance adapter must do (ports/index-maintenance.ts) on
// indexes written by this version: nothing to rebuild, and reads unchanged.
// Rebuilding an index built before a derived vocabulary is the adapter's own
// test (and test/http/derived-rebuild.test.ts over HTTP).

export function describeIndexMaintenanceContract(name: string, create: IndexFactory<IndexMaintenance>): void {
  describe(`IndexMaintenance contract: ${name}`, () => {
    const given = filledIndex(create, [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016]);

    it("finds nothing to rebuild in indexes written with every derived vocabulary, and leaves them as they were", async () => {
      const progress: RebuildProgress[] = [];
      const summary = await given.index.rebuildDerived({ onProgress: (p) => progress.push(p) });
      expect(summary).toEqual({ months: [], articles: 0, skipped: [] });
      expect(progress).toEqual([]);
      expect(await given.index.count()).toBe(given.articles.length);
      const sample = given.articles[7] as ArticleDetail;
      expect(await given.index.getArticle(sample.id)).toEqual({ status: "found", article: sample });
    });
  });
}
