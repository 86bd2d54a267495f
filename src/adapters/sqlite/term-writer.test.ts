import { describe, expect, it } from "vitest";
import { FILTER_FIELD_NAMES, FILTER_FIELDS } from "../../domain/filter-fields.js";
import { MAX_FIELD_CODE } from "./term-writer.js";

describe("term ids", () => {
  it("have room for every filter field's code (a term id is seq * 32 + code)", () => {
    const codes = FILTER_FIELD_NAMES.map((name) => FILTER_FIELDS[name].code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      expect(code).toBeGreaterThanOrEqual(0);
      expect(code).toBeLessThanOrEqual(MAX_FIELD_CODE);
    }
  });
});
