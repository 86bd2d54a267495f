import { describe, expect, it } from "vitest";
import { QUOTE_MAX_CHARS, quoteName, quoteValue } from "./quote.js";

describe("quoteValue and quoteName", () => {
  it("quote a short value whole", () => {
    expect(quoteValue("eng")).toBe('"eng"');
    expect(quoteValue(5)).toBe("5");
    expect(quoteName("lang")).toBe("'lang'");
  });

  it("quote a short prefix of a long value and say how long it was", () => {
    const long = "x".repeat(10_000);
    expect(quoteValue(long).length).toBeLessThan(QUOTE_MAX_CHARS + 30);
    expect(quoteValue(long)).toContain("(10000 characters)");
    expect(quoteName(long)).toContain("(10000 characters)");
    expect(quoteName(long).length).toBeLessThan(QUOTE_MAX_CHARS + 30);
  });
});
