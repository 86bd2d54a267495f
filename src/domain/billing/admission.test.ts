import { describe, expect, it } from "vitest";
import { admitCredits, admitMessage, minuteNeeded } from "./admission.js";

describe("admitting a priced call", () => {
  const state = { credits_used: 3, minute_tokens: 27 };

  it("takes the worst case from the month and the minute when both allow", () => {
    expect(admitCredits(state, { credits: 5, monthlyCap: 40, minuteNeeded: 5 })).toEqual({
      admitted: true,
      state: { credits_used: 8, minute_tokens: 22 },
    });
  });

  it("refuses on the monthly cap before looking at the minute, and changes nothing", () => {
    expect(admitCredits(state, { credits: 38, monthlyCap: 40, minuteNeeded: 99 })).toEqual({
      admitted: false,
      refusedBy: "monthly",
      state,
    });
    // Exactly at the cap is still admitted.
    expect(admitCredits(state, { credits: 37, monthlyCap: 40, minuteNeeded: 1 }).admitted).toBe(true);
  });

  it("refuses when the minute bucket holds less than needed; no cap means no monthly refusal", () => {
    expect(admitCredits(state, { credits: 28, monthlyCap: null, minuteNeeded: 28 })).toEqual({
      admitted: false,
      refusedBy: "minute",
      state,
    });
    // A call larger than a minute's credits may take the bucket negative once it is full.
    expect(admitCredits({ credits_used: 0, minute_tokens: 30 }, { credits: 100, monthlyCap: null, minuteNeeded: 30 })).toEqual({
      admitted: true,
      state: { credits_used: 100, minute_tokens: -70 },
    });
  });

  it("needs at most a full minute's credits", () => {
    expect(minuteNeeded(30, 5)).toBe(5);
    expect(minuteNeeded(30, 100)).toBe(30);
  });
});

describe("admitting a message", () => {
  it("takes one token while one is left, and says how many remain", () => {
    expect(admitMessage(3)).toEqual({ admitted: true, remaining: 2, tokens: 2 });
    expect(admitMessage(1.5)).toEqual({ admitted: true, remaining: 0, tokens: 0.5 });
    expect(admitMessage(0.9)).toEqual({ admitted: false, remaining: 0, tokens: 0.9 });
  });
});
