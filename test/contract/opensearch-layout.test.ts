import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArticleIndices } from "../../src/adapters/opensearch/article-indices.js";
import { articleTemplate, assertLuceneVectors } from "../../src/adapters/opensearch/article-mapping.js";
import { fromDocument, toDocument, type ArticleDocument } from "../../src/adapters/opensearch/article-document.js";
import { bulkCreate } from "../../src/adapters/opensearch/bulk-write.js";
import { IndexNames } from "../../src/adapters/opensearch/index-names.js";
import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { foldValue } from "../../src/domain/filter-fields.js";
import { readArticles } from "../support/gkg-fixtures.js";
import { testOpenSearch, type TestOpenSearch } from "../support/opensearch.js";
import { SAMPLE_FILES } from "../support/test-server.js";

// The monthly index layout on a real OpenSearch node (.ci/opensearch.sh).

describe("OpenSearch article indices", () => {
  let node: TestOpenSearch;
  let names: IndexNames;
  let indices: ArticleIndices;
  let articles: ArticleDetail[];

  beforeAll(async () => {
    node = await testOpenSearch();
    names = new IndexNames(node.prefix);
    indices = new ArticleIndices(node.client, names, { shards: 1, replicas: 0 });
    await indices.ensureTemplate();
    articles = await readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery]);
  });

  afterAll(async () => {
    await node?.dispose();
  });

  it("stores every real article under its id, one index per month of collection, and a second write changes nothing", async () => {
    expect(await bulkCreate(node.client, names, articles)).toEqual({ inserted: articles.length, unchanged: 0 });
    const again = await bulkCreate(node.client, names, articles.slice(0, 40));
    expect(again).toEqual({ inserted: 0, unchanged: 40 });
    const months = new Set(articles.map((a) => a.id.slice(0, 6)));
    expect((await indices.months()).map((m) => m.month)).toEqual([...months].sort());
    const { body } = await node.client.count({ index: names.articles });
    expect(body.count).toBe(articles.length);
  });

  it("gives back each article exactly as written", async () => {
    for (const article of [articles[0], articles[123], articles[articles.length - 1]] as ArticleDetail[]) {
      const { body } = await node.client.get({ index: names.articleIndex(article.id.slice(0, 6)), id: article.id });
      expect(fromDocument(body._source as ArticleDocument)).toEqual(article);
    }
  });

  it("refuses a document with a field the mappings do not declare", async () => {
    const article = articles[5] as ArticleDetail;
    const stray = { ...toDocument(article), id: `${article.id}-stray`, sentiment: 0.4 };
    await expect(
      node.client.index({ index: names.articleIndex(article.id.slice(0, 6)), id: stray.id, body: stray }),
    ).rejects.toThrow(/strict_dynamic_mapping_exception/);
  });

  it("creates monthly indices sorted newest first, with every vector on the Lucene engine, behind the read alias", async () => {
    const month = articles[0]?.id.slice(0, 6) as string;
    const index = names.articleIndex(month);
    const { body: settings } = await node.client.indices.getSettings({ index, flat_settings: true });
    const flat = settings[index]?.settings as Record<string, unknown>;
    expect(flat["index.sort.field"]).toEqual(["indexed.stamp", "id"]);
    expect(flat["index.sort.order"]).toEqual(["desc", "desc"]);
    const { body: mapping } = await node.client.indices.getMapping({ index });
    const mappings = mapping[index]?.mappings as Record<string, unknown>;
    expect(mappings.dynamic).toBe("strict");
    const vector = (mappings as { properties: { indexed: { properties: { vector: Record<string, unknown> } } } }).properties
      .indexed.properties.vector;
    expect(vector).toMatchObject({ type: "knn_vector", dimension: 384, method: { engine: "lucene" } });
    expect(() => assertLuceneVectors(mappings)).not.toThrow();
    const { body: aliases } = await node.client.indices.getAlias({ name: names.articles });
    expect(Object.keys(aliases).sort()).toEqual((await indices.months()).map((m) => m.index));
  });

  it("never builds a knn_vector on another engine (FAISS would kill a node without its native library)", () => {
    const template = articleTemplate(names, { shards: 1, replicas: 0 }) as { template: { mappings: unknown } };
    expect(() => assertLuceneVectors(template.template.mappings)).not.toThrow();
    const withEngine = (engine?: string) => ({
      properties: {
        indexed: {
          properties: {
            vector: { type: "knn_vector", dimension: 384, method: { name: "hnsw", ...(engine ? { engine } : {}) } },
          },
        },
      },
    });
    expect(() => assertLuceneVectors(withEngine("faiss"))).toThrow(/indexed\.vector must set method\.engine: lucene, not faiss/);
    expect(() => assertLuceneVectors(withEngine())).toThrow(/not the default/);
    expect(() => assertLuceneVectors(withEngine("lucene"))).not.toThrow();
  });

  it("matches filter values case-insensitively, and names each facet value by a spelling articles carry", async () => {
    const withPerson = articles.filter((a) => a.persons.includes("joe biden")).length;
    const { body } = await node.client.count({ index: names.articles, body: { query: { term: { persons: "Joe BIDEN" } } } });
    expect(body.count).toBe(withPerson);
    const index = new OpenSearchIndex(node.client, { prefix: node.prefix });
    const result = await index.search({
      filters: {},
      offset: 0,
      limit: 0,
      facets: { fields: ["country", "location"], limit: 10 },
    });
    for (const [field, valuesOf] of [
      ["country", (a: ArticleDetail) => a.countries],
      ["location", (a: ArticleDetail) => a.locations],
    ] as const) {
      const facet = result.facets?.[field];
      const values = facet?.values ?? [];
      expect(values.length, field).toBe(10);
      expect(new Set(values.map((v) => foldValue(v.value))).size, field).toBe(10);
      for (const { value, count } of values) {
        // Spelled as an article carries it (countries are upper case), counted once per article over its folded value.
        expect(
          articles.some((a) => valuesOf(a).includes(value)),
          value,
        ).toBe(true);
        // (Three monthly indices each counted their top values: a count may fall short, within the stated bound.)
        const exact = articles.filter((a) => valuesOf(a).some((v) => foldValue(v) === foldValue(value))).length;
        expect(count, value).toBeLessThanOrEqual(exact);
        expect(exact - count, value).toBeLessThanOrEqual(facet?.doc_count_error_upper_bound ?? 0);
      }
    }
  });
});
