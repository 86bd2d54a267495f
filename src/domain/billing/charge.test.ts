import { describe, expect, it } from "vitest";
import { clampCharge } from "./charge.js";

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
