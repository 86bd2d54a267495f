import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenSearchEmbeddingStage } from "../../src/adapters/opensearch/embedding-stage.js";
import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import { loadOnnxEmbedder, type OnnxEmbedder } from "../../src/adapters/onnx/onnx-embedder.js";
import { SHIPPED_MODEL_DIR } from "../../src/adapters/onnx/shipped-model.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { readArticles } from "../support/gkg-fixtures.js";
import { testOpenSearch, type TestOpenSearch } from "../support/opensearch.js";
import { SAMPLE_FILES } from "../support/test-server.js";

// Vectors in OpenSearch: the embedding stage writes them with the shipped
// model, the node ranks by them (filtered knn on the Lucene engine) as an
// exact comparison of every vector would.

describe("OpenSearch index: vectors", () => {
  let node: TestOpenSearch;
  let index: OpenSearchIndex;
  let embedder: OnnxEmbedder;
  let stage: OpenSearchEmbeddingStage;
  let articles: ArticleDetail[];

  beforeAll(async () => {
    node = await testOpenSearch();
    index = new OpenSearchIndex(node.client, { prefix: node.prefix });
    articles = await readArticles([SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery]);
    await index.write(articles);
    embedder = await loadOnnxEmbedder(SHIPPED_MODEL_DIR);
    stage = new OpenSearchEmbeddingStage(node.client, index.indices, embedder);
  });

  afterAll(async () => {
    await embedder?.close();
    await node?.dispose();
  });

  it("ranks nothing before the stage ran, naming the months not embedded, then embeds each article once", async () => {
    const vector = new Float32Array(384).fill(1 / Math.sqrt(384));
    const before = await index.nearest({ vector, model: stage.model, filters: {}, k: 5 });
    expect(before.hits).toEqual([]);
    expect(before.partitionsUnembedded).toEqual(["201601", "202002"]);
    expect(await index.vectorOf((articles[0] as ArticleDetail).id, stage.model)).toMatchObject({ status: "unembedded" });

    expect(await stage.backlog()).toEqual([
      { month: "202002", articles: 199, embedded: 0 },
      { month: "201601", articles: 10, embedded: 0 },
    ]);
    for (const month of ["201601", "202002"]) {
      for (let guard = 0; guard < 10; guard++) {
        const step = await stage.embedNext(month, 64);
        if (step.backlog.embedded === step.backlog.articles) break;
        expect(step.embedded).toBeGreaterThan(0);
      }
    }
    expect(await stage.backlog()).toEqual([
      { month: "202002", articles: 199, embedded: 199 },
      { month: "201601", articles: 10, embedded: 10 },
    ]);
    expect((await stage.embedNext("202002", 64)).embedded).toBe(0);
  });

  it("finds the nearest articles as an exact comparison of every vector does, within the filters", async () => {
    const vectors = new Map<string, Float32Array>();
    for (const a of articles) {
      const found = await index.vectorOf(a.id, stage.model);
      if (found.status === "found" && found.vector) vectors.set(a.id, found.vector);
    }
    expect(vectors.size).toBeGreaterThan(150);
    const [query] = await embedder.embed(["protests against the government"], "query");
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);
    const english = new Set(articles.filter((a) => a.language === "eng").map((a) => a.id));
    const exact = [...vectors]
      .filter(([id]) => english.has(id))
      .map(([id, v]) => ({ id, score: dot(query as Float32Array, v) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 5);
    const near = await index.nearest({ vector: query as Float32Array, model: stage.model, filters: { language: "eng" }, k: 5 });
    expect(near.partitionsUnembedded).toEqual([]);
    expect(near.hits.map((h) => h.id)).toEqual(exact.map((e) => e.id));
    near.hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(exact[i]?.score as number, 4));

    const seed = near.hits[0];
    const withoutStory = await index.nearest({
      vector: query as Float32Array,
      model: stage.model,
      filters: {},
      k: 5,
      excludeStory: seed?.story_id as string,
    });
    expect(withoutStory.hits.map((h) => h.story_id)).not.toContain(seed?.story_id);
    const other = await index.nearest({ vector: query as Float32Array, model: "another-model", filters: {}, k: 5 });
    expect(other.hits).toEqual([]);
  });
});
