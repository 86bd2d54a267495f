import { describe, expect, it } from "vitest";
import { priceOf } from "../pricing.js";
import { chargeTaken, clampCharge } from "./charge.js";

describe("the charge of a call that ran", () => {
  const price = { min: 1, max: 3 };

  it("is what it took, held within its price's range", () => {
    expect(clampCharge(price, 2)).toBe(2);
    expect(clampCharge(price, 0)).toBe(1);
    expect(clampCharge(price, 9)).toBe(3);
  });

  it("is the worst case when the call did not say what it took", () => {
    expect(clampCharge(price, undefined)).toBe(3);
  });
});

describe("a call's extra credits, counted one way", () => {
  const plain = { offset: 0, entityIds: 0, candidateFilter: false, percentilePass: false };

  it("is the price's minimum when every part took its least", () => {
    const price = priceOf({ operation: "search", mode: "keyword", ...plain, entityIds: 2, candidateFilter: true });
    expect(chargeTaken(price, { resolution: { credits: 2, ids: 2 }, candidateBatches: 1 })).toBe(price.min);
    expect(chargeTaken(price, {})).toBe(price.min);
  });

  it("adds what each part took beyond its least: a cursor page, an id's window check, candidate batches, a second pass", () => {
    const cursor = priceOf({ operation: "search", mode: "recent", cursor: "later", ...plain });
    expect(chargeTaken(cursor, { cursorPage: 3 })).toBe(3);
    const ids = priceOf({ operation: "aggregate", entityIds: 2, percentilePass: false });
    expect(chargeTaken(ids, { resolution: { credits: 3, ids: 2 } })).toBe(ids.min + 1);
    const near = priceOf({ operation: "stories", mode: "recent", ...plain, candidateFilter: true });
    // Batches past the last the price allows are not charged.
    expect([1, 2, 4, 9].map((batches) => chargeTaken(near, { candidateBatches: batches }))).toEqual([3, 4, 6, 6]);
    expect(chargeTaken(priceOf({ operation: "entities" }), { passes: 2 })).toBe(2);
  });
});
