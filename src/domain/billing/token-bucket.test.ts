import { describe, expect, it } from "vitest";
import { refilledTokens, refundedTokens } from "./token-bucket.js";

describe("the per-minute bucket", () => {
  it("is full before it is first written", () => {
    expect(refilledTokens(undefined, 30, 1_000)).toBe(30);
  });

  it("refills continuously at perMinute/60 a second, never past its size", () => {
    const bucket = { tokens: 0, updatedMs: 0 };
    expect(refilledTokens(bucket, 30, 2_000)).toBeCloseTo(1);
    expect(refilledTokens(bucket, 30, 30_000)).toBeCloseTo(15);
    expect(refilledTokens(bucket, 30, 600_000)).toBe(30);
  });

  it("pays back a negative balance by refilling, and earns nothing from a clock that went back", () => {
    expect(refilledTokens({ tokens: -70, updatedMs: 0 }, 30, 120_000)).toBeCloseTo(-10);
    expect(refilledTokens({ tokens: 5, updatedMs: 10_000 }, 30, 4_000)).toBe(5);
  });

  it("takes back given credits up to its size", () => {
    expect(refundedTokens(27, 2, 30)).toBe(29);
    expect(refundedTokens(29, 5, 30)).toBe(30);
  });
});
