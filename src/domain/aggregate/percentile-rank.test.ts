import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { largestNeeded, nearestRankOf, percentileOfParts } from "./percentile-rank.js";

// The threshold of signal_percentile_min over several monthly indexes: each gives
// its values in order, all of them or only the largest the percentile needs, and
// the answer must be the nearest-rank percentile of all the values together.

const ascending = (values: number[]) => Float64Array.from(values).sort();

function bruteForce(values: number[], percentile: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((percentile * sorted.length) / 100 - 1e-9));
  return sorted[rank - 1] as number;
}

describe("percentileOfParts", () => {
  it("is the nearest rank of the union, with parts cut to the largest values needed", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            fc.integer({ min: 1, max: 500 }).map((v) => v / 100),
            { maxLength: 60 },
          ),
          { maxLength: 6 },
        ),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 500, max: 999 }).map((p) => p / 10),
        (lists, cut, percentile) => {
          const total = lists.reduce((n, l) => n + l.length, 0);
          const m = largestNeeded(total, percentile);
          const parts = lists.map((list, i) => {
            const values = ascending(list);
            return { count: list.length, values: cut[i] ? values.slice(Math.max(0, values.length - m)) : values };
          });
          expect(percentileOfParts(parts, percentile)).toBe(bruteForce(lists.flat(), percentile));
        },
      ),
    );
  });

  it("reads the 90th percentile of 1..10 as 9 and of a single value as that value", () => {
    expect(nearestRankOf(10, 90)).toBe(9);
    const part = (values: number[]) => ({ count: values.length, values: ascending(values) });
    expect(percentileOfParts([part([1, 2, 3, 4, 5]), part([6, 7, 8, 9, 10])], 90)).toBe(9);
    expect(percentileOfParts([part([]), part([4.2])], 99.9)).toBe(4.2);
    expect(percentileOfParts([part([]), part([])], 50)).toBeNull();
  });

  it("refuses a part cut shorter than the percentile needs", () => {
    // 20 values at the 50th percentile need the 11 largest of each part.
    const cut = { count: 10, values: ascending([5, 6, 7]) };
    expect(() => percentileOfParts([cut, { count: 10, values: ascending([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) }], 50)).toThrow();
  });
});
