import { describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import type { VectorSearch } from "../../src/ports/vector-search.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import { filledIndex, type IndexFactory } from "./index-fixture.js";

// What every VectorSearch adapter must do (ports/vector-search.ts) before the
// embedding stage ran: rank nothing, and say which indexes lack vectors.
// Ranking by meaning itself is proven over HTTP (test/http/semantic*.test.ts).

export function describeVectorSearchContract(name: string, create: IndexFactory<VectorSearch>): void {
  describe(`VectorSearch contract: ${name}`, () => {
    const given = filledIndex(create, [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016]);

    it("ranks nothing by meaning before the embedding stage ran, and says which indexes lack it", async () => {
      const vector = new Float32Array(384).fill(1 / Math.sqrt(384));
      const near = await given.index.nearest({ vector, model: "some-model", filters: {}, k: 10 });
      expect(near.hits).toEqual([]);
      expect(near.partitionsFailed).toEqual([]);
      expect(near.partitionsUnembedded.length).toBeGreaterThan(0);
      expect([...near.partitionsUnembedded].sort()).toEqual([...near.partitionsRead].sort());
    });

    it("tells an article not embedded yet from one it does not hold", async () => {
      const sample = given.articles[42] as ArticleDetail;
      expect(await given.index.vectorOf(sample.id, "some-model")).toEqual({ status: "unembedded", story_id: sample.story_id });
      expect(await given.index.vectorOf("20230702153000-424242", "some-model")).toEqual({ status: "absent" });
    });
  });
}
