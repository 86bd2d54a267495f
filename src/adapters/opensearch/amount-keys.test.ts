import { describe, expect, it } from "vitest";
import { amountKeyRange, amountKeys, sortableNumber } from "./amount-keys.js";

const within = (key: string, range: { gte: string; lte: string }): boolean => key >= range.gte && key <= range.lte;

describe("amount keys", () => {
  it("order as the numbers they encode, negatives and fractions included", () => {
    const numbers = [-1e9, -2.5, -1, 0, 1e-9, 0.5, 1, 2, 10, 1e3, 1e15, Number.POSITIVE_INFINITY];
    const keys = numbers.map(sortableNumber);
    expect([...keys].sort()).toEqual(keys);
    expect(sortableNumber(-0)).toBe(sortableNumber(0));
  });

  it("find an amount of the object within both bounds, and none of another object or outside them", () => {
    const keys = amountKeys([
      { number: 30, object: "Soldiers" },
      { number: 500, object: "dollars" },
      { number: null, object: "soldiers" },
    ]);
    expect(keys.some((k) => within(k, amountKeyRange("soldiers", 20, 40)))).toBe(true);
    expect(keys.some((k) => within(k, amountKeyRange("SOLDIERS", 31, undefined)))).toBe(false);
    // 500 is an amount of dollars, not soldiers: the bounds hold on one amount that describes the object.
    expect(keys.some((k) => within(k, amountKeyRange("soldiers", 400, 600)))).toBe(false);
    expect(keys.some((k) => within(k, amountKeyRange("dollars", undefined, 500)))).toBe(true);
  });

  it("keep an object that is the start of another object's name apart from it", () => {
    const keys = amountKeys([{ number: 5, object: "a|b" }]);
    expect(keys.some((k) => within(k, amountKeyRange("a", undefined, undefined)))).toBe(false);
    expect(keys.some((k) => within(k, amountKeyRange("a|b", undefined, undefined)))).toBe(true);
  });
});
