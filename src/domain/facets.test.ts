import { describe, expect, it } from "vitest";
import { mergeFacets, shardSize, type PartitionFacet } from "./facets.js";

const part = (top: Array<[string, number]>, otherCount: number, truncated: boolean): PartitionFacet => ({
  top: top.map(([key, count]) => ({ key, value: key.toUpperCase(), count })),
  otherCount,
  truncated,
});

describe("mergeFacets", () => {
  it("sums counts by value across monthly indexes and ranks them, ties by value", () => {
    const facet = mergeFacets(
      [
        part(
          [
            ["a", 5],
            ["b", 3],
          ],
          0,
          false,
        ),
        part(
          [
            ["b", 4],
            ["c", 2],
          ],
          0,
          false,
        ),
      ],
      2,
    );
    expect(facet.values).toEqual([
      { value: "B", count: 7 },
      { value: "A", count: 5 },
    ]);
    expect(facet.sum_other_doc_count).toBe(2);
    expect(facet.doc_count_error_upper_bound).toBe(0);
    expect(facet.approximate).toBe(false);
  });

  it("bounds the error by the smallest count of each index that cut its list", () => {
    const facet = mergeFacets(
      [
        part(
          [
            ["a", 9],
            ["b", 4],
          ],
          10,
          true,
        ),
        part(
          [
            ["c", 6],
            ["a", 2],
          ],
          3,
          true,
        ),
        part([["d", 1]], 0, false),
      ],
      3,
    );
    expect(facet.doc_count_error_upper_bound).toBe(4 + 2);
    expect(facet.approximate).toBe(true);
    expect(facet.sum_other_doc_count).toBe(9 + 4 + 10 + 6 + 2 + 3 + 1 - (11 + 6 + 4));
  });

  it("is exact when one index holds every match, even if it cut its list", () => {
    const facet = mergeFacets(
      [
        part(
          [
            ["a", 9],
            ["b", 4],
          ],
          10,
          true,
        ),
        part([], 0, false),
      ],
      2,
    );
    expect(facet.doc_count_error_upper_bound).toBe(0);
    expect(facet.approximate).toBe(false);
  });

  it("asks each index for more values than it shows", () => {
    expect(shardSize(10)).toBe(25);
    expect(shardSize(1)).toBe(12);
    expect(shardSize(100)).toBe(160);
  });
});
