import { describe, expect, it } from "vitest";
import { priceOf, type SearchExtras } from "./pricing.js";

const plain: SearchExtras = { offset: 0, entityIds: 0, candidateFilter: false, percentilePass: false };
const range = (call: Parameters<typeof priceOf>[0]): [number, number] => {
  const price = priceOf(call);
  return [price.min, price.max];
};

describe("priceOf: document 1, section 8", () => {
  it("prices ranking by mode: keyword 1, semantic 2, hybrid 3; a browse 1", () => {
    expect(range({ operation: "search", mode: "keyword", ...plain })).toEqual([1, 1]);
    expect(range({ operation: "search", mode: "semantic", ...plain })).toEqual([2, 2]);
    expect(range({ operation: "search", mode: "hybrid", ...plain })).toEqual([3, 3]);
    expect(range({ operation: "search", mode: "recent", ...plain })).toEqual([1, 1]);
    expect(range({ operation: "top_headlines", ...plain })).toEqual([1, 1]);
  });

  it("adds 1 per full 1,000 rows of offset on search, and per full 100 on stories", () => {
    expect(range({ operation: "search", mode: "keyword", ...plain, offset: 999 })).toEqual([1, 1]);
    expect(range({ operation: "search", mode: "keyword", ...plain, offset: 1000 })).toEqual([2, 2]);
    expect(range({ operation: "top_headlines", ...plain, offset: 100_000 })).toEqual([101, 101]);
    expect(range({ operation: "stories", mode: "keyword", ...plain, offset: 99 })).toEqual([1, 1]);
    expect(range({ operation: "stories", mode: "keyword", ...plain, offset: 1000 })).toEqual([11, 11]);
  });

  it("prices a cursor page in place of the base: up to 2 first, up to 3 later", () => {
    expect(range({ operation: "search", mode: "recent", cursor: "first", ...plain })).toEqual([1, 2]);
    expect(range({ operation: "search", mode: "recent", cursor: "later", ...plain })).toEqual([1, 3]);
    expect(range({ operation: "top_headlines", cursor: "later", ...plain })).toEqual([1, 3]);
  });

  it("adds 1 to 2 per entity_id, candidate batches plus the derived-field unit, and the percentile pass", () => {
    expect(range({ operation: "search", mode: "keyword", ...plain, entityIds: 3 })).toEqual([4, 7]);
    expect(range({ operation: "search", mode: "keyword", ...plain, candidateFilter: true })).toEqual([3, 6]);
    expect(range({ operation: "stories", mode: "keyword", ...plain, percentilePass: true })).toEqual([2, 2]);
  });

  it("prices the single-resource calls", () => {
    expect(range({ operation: "doc" })).toEqual([1, 1]);
    expect(range({ operation: "similar" })).toEqual([2, 2]);
    expect(range({ operation: "story" })).toEqual([2, 2]);
    expect(range({ operation: "entities" })).toEqual([1, 2]);
    expect(range({ operation: "aggregate", entityIds: 1, percentilePass: true })).toEqual([3, 4]);
    expect(range({ operation: "free" })).toEqual([0, 0]);
  });

  it("explains itself line by line", () => {
    const price = priceOf({ operation: "search", mode: "keyword", ...plain, offset: 2500, entityIds: 1 });
    expect(price.breakdown).toEqual([
      { item: "keyword ranking", credits: { min: 1, max: 1 } },
      { item: "offset 2500", credits: { min: 2, max: 2 } },
      { item: "resolving 1 entity_id", credits: { min: 1, max: 2 } },
    ]);
  });
});

describe("priceOf: document 2, section 8", () => {
  it("charges 1 per watch operation", () => {
    expect(range({ operation: "watch" })).toEqual([1, 1]);
  });

  it("charges graph calls per index query, at most 16", () => {
    expect(range({ operation: "graph_related", evidence: 0 })).toEqual([2, 4]);
    expect(range({ operation: "graph_related", evidence: 3 })).toEqual([2, 10]);
    expect(range({ operation: "graph_related", evidence: 10 })).toEqual([2, 16]);
    expect(range({ operation: "graph_path", maxHops: 1, evidence: 3 })).toEqual([3, 8]);
    expect(range({ operation: "graph_path", maxHops: 2, evidence: 0 })).toEqual([3, 9]);
    expect(range({ operation: "graph_path", maxHops: 2, evidence: 3 })).toEqual([3, 16]);
    expect(range({ operation: "graph_exposures", entities: 2 })).toEqual([3, 7]);
    expect(range({ operation: "graph_exposures", entities: 5 })).toEqual([6, 13]);
  });

  it("adds a flat 3 for a network comparison", () => {
    expect(range({ operation: "graph_network", evidence: 0, compare: false })).toEqual([2, 4]);
    expect(range({ operation: "graph_network", evidence: 0, compare: true })).toEqual([5, 7]);
  });
});
