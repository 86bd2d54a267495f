import { describe, expect, it } from "vitest";
import { embeddingText } from "./embedding-text.js";

describe("embeddingText", () => {
  it("is the headline, then at most 5 persons, 5 organizations and 3 locations", () => {
    const text = embeddingText({
      title: "Senate votes down spending bill",
      persons: ["a", "b", "c", "d", "e", "f"],
      organizations: ["senate"],
      locations: ["Washington", "Ohio", "Texas", "Utah"],
    });
    expect(text).toBe("Senate votes down spending bill. a, b, c, d, e, senate, Washington, Ohio, Texas");
  });

  it("is the names alone without a headline, and empty with neither", () => {
    expect(embeddingText({ title: null, persons: ["joe biden"], organizations: [], locations: [] })).toBe("joe biden");
    expect(embeddingText({ title: " ", persons: [], organizations: [], locations: [] })).toBe("");
  });
});
