import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import type { VectorSearch } from "../../src/ports/vector-search.js";
import { readArticles } from "../support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import type { IndexFactory, IndexFixture } from "./index-fixture.js";

// What every VectorSearch adapter must do (ports/vector-search.ts) before the
// embedding stage ran: rank nothing, and say which indexes lack vectors.
// Ranking by meaning itself is proven over HTTP (test/http/semantic*.test.ts).

export function describeVectorSearchContract(name: string, create: IndexFactory<VectorSearch>): void {
  describe(`VectorSearch contract: ${name}`, () => {
    let fixture: IndexFixture<VectorSearch>;
    let articles: ArticleDetail[];

    beforeAll(async () => {
      fixture = await create();
      articles = await readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016]);
      await fixture.index.write(articles);
    });

    afterAll(async () => {
      await fixture.dispose();
    });

    it("ranks nothing by meaning before the embedding stage ran, and says which indexes lack it", async () => {
      const vector = new Float32Array(384).fill(1 / Math.sqrt(384));
      const near = await fixture.index.nearest({ vector, model: "some-model", filters: {}, k: 10 });
      expect(near.hits).toEqual([]);
      expect(near.partitionsFailed).toEqual([]);
      expect(near.partitionsUnembedded.length).toBeGreaterThan(0);
      expect([...near.partitionsUnembedded].sort()).toEqual([...near.partitionsRead].sort());
    });

    it("tells an article not embedded yet from one it does not hold", async () => {
      const sample = articles[42] as ArticleDetail;
      expect(await fixture.index.vectorOf(sample.id, "some-model")).toEqual({ status: "unembedded", story_id: sample.story_id });
      expect(await fixture.index.vectorOf("20230702153000-424242", "some-model")).toEqual({ status: "absent" });
    });
  });
}
