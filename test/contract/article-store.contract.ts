import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import { readArticles } from "../support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import type { IndexFactory, IndexFixture } from "./index-fixture.js";

// What every ArticleStore adapter must do (ports/article-store.ts), on real GKG records.

export function describeArticleStoreContract(name: string, create: IndexFactory<object>): void {
  describe(`ArticleStore contract: ${name}`, () => {
    let fixture: IndexFixture<object>;
    let articles: ArticleDetail[];

    beforeAll(async () => {
      fixture = await create();
      articles = await readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery]);
      expect(await fixture.index.write(articles)).toEqual({ inserted: articles.length, unchanged: 0 });
    });

    afterAll(async () => {
      await fixture.dispose();
    });

    it("stores each article once, by id", async () => {
      expect(await fixture.index.count()).toBe(articles.length);
      const again = await fixture.index.write(articles.slice(0, 50));
      expect(again).toEqual({ inserted: 0, unchanged: 50 });
      expect(await fixture.index.count()).toBe(articles.length);
    });

    it("leaves an article already stored as it was when its id is written again", async () => {
      const stored = articles[300] as ArticleDetail;
      const changed: ArticleDetail = { ...stored, title: "A different title" };
      expect(await fixture.index.write([changed])).toEqual({ inserted: 0, unchanged: 1 });
      expect(await fixture.index.getArticle(stored.id)).toEqual({ status: "found", article: stored });
    });

    it("returns an article exactly as written, and absent for unknown ids", async () => {
      for (const sample of [articles[123], articles[articles.length - 1]] as ArticleDetail[]) {
        expect(await fixture.index.getArticle(sample.id)).toEqual({ status: "found", article: sample });
      }
      expect(await fixture.index.getArticle("20230702153000-424242")).toEqual({ status: "absent" });
      expect(await fixture.index.getArticle("19990101000000-1")).toEqual({ status: "absent" });
      expect(await fixture.index.getArticle("not-an-id")).toEqual({ status: "absent" });
    });

    it("reads documents of ids ranked elsewhere, leaving out unknown ids", async () => {
      const wanted = [
        articles[5] as ArticleDetail,
        articles[700] as ArticleDetail,
        articles[articles.length - 3] as ArticleDetail,
      ];
      const { articles: found, partitionsFailed } = await fixture.index.getArticles([
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
