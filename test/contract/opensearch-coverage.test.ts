import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { ApiError } from "../../src/shared/api-error.js";
import { assertSomethingRead, completeness } from "../../src/usecases/query-kernel/coverage.js";
import { words } from "../support/gkg-fixtures.js";
import { reopen, sampleOpenSearchIndex, type TestOpenSearch } from "../support/opensearch.js";

// What a search over OpenSearch says when part of the index, or all of it,
// cannot be read: a failed shard makes the answer partial with the coverage
// the spec names; nothing read is 503, never an empty answer.

describe("OpenSearch index: partial answers and unavailability", () => {
  let node: TestOpenSearch;
  let index: OpenSearchIndex;
  let articles: ArticleDetail[];
  const byMonth = (month: string) => articles.filter((a) => a.id.startsWith(month)).length;

  beforeAll(async () => {
    ({ node, index, articles } = await sampleOpenSearchIndex());
  });

  afterAll(async () => {
    await node?.dispose();
  });

  it("reports a shard that failed as a partial answer, naming its month, with the others' matches", async () => {
    // A monthly index whose places are not geo points: a `near` filter fails on its shard, and only there.
    const broken = index.names.articleIndex("209912");
    await node.client.indices.create({
      index: broken,
      body: { mappings: { properties: { indexed: { properties: { places: { type: "keyword" } } } } } },
    });
    try {
      const near = { kind: "near" as const, latitude: 39.29, longitude: -76.61, radius_km: 50 };
      const result = await index.search({ filters: {}, offset: 0, limit: 5, check: { area: near } });
      expect(result.partitionsFailed).toEqual([
        { partition: "209912", kind: "unreadable", reason: expect.stringMatching(/shard.*geo_point/s) },
      ]);
      expect([...result.partitionsRead].sort()).toEqual([...new Set(articles.map((a) => a.id.slice(0, 6)))].sort());
      expect(result.total).toBeGreaterThan(0);
      // The failed month is the newest: retry shortly (spec section 2, coverage).
      expect(completeness(result.partitionsFailed, result.partitionsRead)).toEqual({
        partial: true,
        coverage: "recent_unavailable",
      });
      expect(() => assertSomethingRead(result)).not.toThrow();
    } finally {
      await node.client.indices.delete({ index: broken });
    }
  });

  it("leaves out a closed monthly index, saying so, and counts the rest", async () => {
    const month = "201601";
    await node.client.indices.close({ index: index.names.articleIndex(month) });
    try {
      const result = await index.search({ filters: {}, offset: 0, limit: 5, keywords: words("the") });
      const all = await index.search({ filters: {}, offset: 0, limit: 1 });
      expect(all.partitionsFailed).toEqual([{ partition: month, kind: "unreadable", reason: "the index is closed" }]);
      expect(all.total).toBe(articles.length - byMonth(month));
      expect(result.partitionsFailed.map((f) => f.partition)).toEqual([month]);
      expect(completeness(all.partitionsFailed, all.partitionsRead)).toEqual({ partial: true, coverage: "range_too_wide" });
    } finally {
      await reopen(node.client, index.names.articleIndex(month));
    }
  });

  it("answers 503 when no monthly index of the window can be read, not an empty result", async () => {
    const all = index.names.articlePattern;
    await node.client.indices.close({ index: all });
    try {
      const result = await index.search({ filters: {}, offset: 0, limit: 5 });
      expect(result.hits).toEqual([]);
      expect(result.partitionsRead).toEqual([]);
      expect(result.partitionsFailed.length).toBeGreaterThan(0);
      let refusal: unknown;
      try {
        assertSomethingRead(result);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(ApiError);
      expect((refusal as ApiError).code).toBe("upstream_unavailable");
      expect(await index.getArticle((articles[0] as ArticleDetail).id)).toMatchObject({ status: "unavailable" });
    } finally {
      await reopen(node.client, all);
    }
    expect((await index.search({ filters: {}, offset: 0, limit: 1 })).total).toBe(articles.length);
  });

  it("answers 503 when the node cannot be reached at all", async () => {
    const { openSearchClient } = await import("../../src/adapters/opensearch/client.js");
    // A port nothing listens on.
    const unreachable = openSearchClient({ urls: ["http://127.0.0.1:9"], requestTimeoutMs: 2000 });
    try {
      const lost = new OpenSearchIndex(unreachable, { prefix: node.prefix });
      const result = await lost.search({ filters: { to: "20230702235959" }, offset: 0, limit: 5 });
      expect(result.partitionsRead).toEqual([]);
      expect(() => assertSomethingRead(result, "20230702235959")).toThrow(ApiError);
      expect(await lost.getArticle((articles[0] as ArticleDetail).id)).toMatchObject({ status: "unavailable" });
    } finally {
      await unreachable.close();
    }
  });
});
