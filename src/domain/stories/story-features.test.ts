import { describe, expect, it } from "vitest";
import { headlineWords } from "./story-features.js";

// Real headlines from the 2023-07-02 15:30 GDELT batch.

describe("headlineWords", () => {
  it("drops the outlet's name at the end of a headline", () => {
    expect(headlineWords("America's Oldest Military Bases – 24/7 Wall St.", "247wallst.com")).toEqual([
      "america",
      "oldest",
      "military",
      "base",
    ]);
    expect(headlineWords("Heavy rain expected Sunday in the Sarnia area | Chatham Daily News", "chathamdailynews.ca")).toEqual([
      "heavy",
      "rain",
      "expected",
      "sunday",
      "sarnia",
      "area",
    ]);
    expect(headlineWords("France: 'Do not riot,' killed teen's grandmother says – DW – 07/02/2023", "dw.com")).toEqual([
      "france",
      "riot",
      "killed",
      "teen",
      "grandmother",
    ]);
  });

  it("keeps a trailing segment that is content, not an outlet", () => {
    expect(headlineWords("800,000 more Kenyans filed returns in 2023 – KRA", "the-star.co.ke")).toContain("kra");
    expect(
      headlineWords("Government is not seeking 'revenge' in its response to RTE payment debacle – TD", "hamhigh.co.uk"),
    ).toContain("td");
  });

  it("folds case and accents, keeps numbers and non-Latin words", () => {
    expect(headlineWords("Baltimore block party shooting leaves 2 dead, 28 injured", "thehill.com")).toEqual([
      "baltimore",
      "block",
      "party",
      "shooting",
      "leave",
      "2",
      "dead",
      "28",
      "injured",
    ]);
    expect(headlineWords("Press Trust of India: दिल्ली : लावारिस वाहन में मिले भैंस के सिर", "ptinews.com").length).toBeGreaterThan(5);
  });
});
