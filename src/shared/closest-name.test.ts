import { describe, expect, it } from "vitest";
import { closestName } from "./closest-name.js";

const SEARCH = ["q", "mode", "source", "source_type", "publisher_country", "language", "from", "to", "offset", "limit", "view"];

describe("closestName", () => {
  it("prefers the parameter a short name abbreviates", () => {
    expect(closestName("lang", SEARCH)).toBe("language");
    expect(closestName("pub", SEARCH)).toBe("publisher_country");
  });
  it("falls back to edit distance for typos", () => {
    expect(closestName("limt", SEARCH)).toBe("limit");
    expect(closestName("offest", SEARCH)).toBe("offset");
    expect(closestName("query", SEARCH)).toBe("q");
  });
  it("ignores case", () => {
    expect(closestName("Language", SEARCH)).toBe("language");
  });
});
