import { describe, expect, it } from "vitest";
import { parseStamp, parseTimeBound } from "./timestamps.js";

describe("parseTimeBound", () => {
  it("reads years before 0100 as themselves, not as 19xx", () => {
    expect(parseTimeBound("0001-01-01", "start")).toBe("00010101000000");
    expect(parseTimeBound("0099-12-31", "end")).toBe("00991231235959");
    expect(parseStamp("00500229000000")).toBeUndefined(); // 50 AD was not a leap year
    expect(new Date(parseStamp("00010101000000") ?? Number.NaN).getUTCFullYear()).toBe(1);
  });

  it("still refuses dates that do not exist", () => {
    expect(parseTimeBound("2023-02-30", "start")).toBeUndefined();
    expect(parseTimeBound("20230702250000", "end")).toBeUndefined();
  });
});
