import { describe, expect, it } from "vitest";
import { parseKeywordQuery } from "./keyword-query.js";

describe("parseKeywordQuery", () => {
  it("ANDs plain words, lower-cased", () => {
    expect(parseKeywordQuery("Baltimore Shooting")).toEqual({
      must: [{ anyOf: [["baltimore"]] }, { anyOf: [["shooting"]] }],
      mustNot: [],
    });
  });

  it("keeps quoted phrases in order and splits punctuation into a phrase", () => {
    expect(parseKeywordQuery('"block party" U.S.')?.must).toEqual([{ anyOf: [["block", "party"]] }, { anyOf: [["u", "s"]] }]);
  });

  it("groups OR alternatives and collects negations", () => {
    expect(parseKeywordQuery("biden OR trump -visit")).toEqual({
      must: [{ anyOf: [["biden"], ["trump"]] }],
      mustNot: [{ anyOf: [["visit"]] }],
    });
  });

  it("folds accents through NFKC lower-casing and keeps non-Latin words", () => {
    expect(parseKeywordQuery("Zürich 東京")?.must).toEqual([{ anyOf: [["zürich"]] }, { anyOf: [["東京"]] }]);
  });

  it("refuses a query with nothing to match", () => {
    expect(parseKeywordQuery("  -- ! ")).toBeUndefined();
    expect(parseKeywordQuery("-only")).toBeUndefined();
    expect(parseKeywordQuery("OR")).toBeUndefined();
  });
});
