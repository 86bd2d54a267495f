import { describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import { filledIndex, type IndexFactory } from "./index-fixture.js";

// What every ArticleStore adapter must do (ports/article-store.ts), on real GKG records.

export function describeArticleStoreContract(name: string, create: IndexFactory<object>): void {
  describe(`ArticleStore contract: ${name}`, () => {
    const given = filledIndex(create, [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery]);

    it("stores each article once, by id", async () => {
      expect(await given.index.count()).toBe(given.articles.length);
      const again = await given.index.write(given.articles.slice(0, 50));
      expect(again).toEqual({ inserted: 0, unchanged: 50 });
      expect(await given.index.count()).toBe(given.articles.length);
    });

    it("leaves an article already stored as it was when its id is written again", async () => {
      const stored = given.articles[300] as ArticleDetail;
      const changed: ArticleDetail = { ...stored, title: "A different title" };
      expect(await given.index.write([changed])).toEqual({ inserted: 0, unchanged: 1 });
      expect(await given.index.getArticle(stored.id)).toEqual({ status: "found", article: stored });
    });

    it("returns an article exactly as written, and absent for unknown ids", async () => {
      for (const sample of [given.articles[123], given.articles[given.articles.length - 1]] as ArticleDetail[]) {
        expect(await given.index.getArticle(sample.id)).toEqual({ status: "found", article: sample });
      }
      expect(await given.index.getArticle("20230702153000-424242")).toEqual({ status: "absent" });
      expect(await given.index.getArticle("19990101000000-1")).toEqual({ status: "absent" });
      expect(await given.index.getArticle("not-an-id")).toEqual({ status: "absent" });
    });

    it("reads documents of ids ranked elsewhere, leaving out unknown ids", async () => {
      const wanted = [
        given.articles[5] as ArticleDetail,
        given.articles[700] as ArticleDetail,
        given.articles[given.articles.length - 3] as ArticleDetail,
      ];
      const { articles: found, partitionsFailed } = await given.index.getArticles([
        wanted[0]?.id as string,
        "20230702153000-424242",
        wanted[1]?.id as string,
        "not-an-id",
        wanted[2]?.id as string,
      ]);
      expect(partitionsFailed).toEqual([]);
      expect(new Set(found.keys())).toEqual(new Set(wanted.map((a) => a.id)));
      for (const a of wanted) expect(found.get(a.id)).toEqual(a);
    });
  });
}
