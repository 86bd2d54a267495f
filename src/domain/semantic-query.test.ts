import { describe, expect, it } from "vitest";
import { semanticText } from "./semantic-query.js";

describe("semanticText", () => {
  it("keeps the words as written and drops keyword syntax", () => {
    expect(semanticText("lawmakers reject the budget")).toBe("lawmakers reject the budget");
    expect(semanticText('"block party" shooting -police')).toBe("block party shooting");
    expect(semanticText('biden OR sunak -"white house" visit')).toBe("biden sunak visit");
  });

  it("keeps hyphenated words and a lower-case 'or'", () => {
    expect(semanticText("e-commerce tax or tariff")).toBe("e-commerce tax or tariff");
  });
});
