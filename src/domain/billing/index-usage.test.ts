import { describe, expect, it } from "vitest";
import { CANDIDATE_BATCH, CANDIDATE_LIMIT } from "../search-query.js";
import { candidateBatches, lookupCredits, mostExpensive, NO_USAGE } from "./index-usage.js";

// Prices computed from what a read took (spec section 8), whatever engine reported it.

describe("prices from usage", () => {
  it("counts candidate batches of 500 started, up to the 4 of a full check", () => {
    const batches = (candidatesExamined: number) => candidateBatches({ indexQueries: 1, candidatesExamined });
    expect(batches(0)).toBe(0);
    expect(batches(1)).toBe(1);
    expect(batches(CANDIDATE_BATCH)).toBe(1);
    expect(batches(CANDIDATE_BATCH + 1)).toBe(2);
    expect(batches(CANDIDATE_LIMIT)).toBe(4);
  });

  it("charges a key lookup 1 credit, 2 when it took a second query", () => {
    expect(lookupCredits(NO_USAGE)).toBe(1);
    expect(lookupCredits({ indexQueries: 1, candidatesExamined: 0 })).toBe(1);
    expect(lookupCredits({ indexQueries: 2, candidatesExamined: 0 })).toBe(2);
  });

  it("takes the most expensive index, not the sum (spec: a call across several indexes)", () => {
    const a = { indexQueries: 2, candidatesExamined: 600 };
    const b = { indexQueries: 1, candidatesExamined: 1500 };
    expect(mostExpensive(a, b)).toEqual({ indexQueries: 2, candidatesExamined: 1500 });
    expect(candidateBatches(mostExpensive(a, b))).toBe(3);
  });
});
