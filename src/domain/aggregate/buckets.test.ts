import { describe, expect, it } from "vitest";
import { bucketCount, bucketOf, bucketsOf, startOfLast } from "./buckets.js";

describe("aggregate buckets", () => {
  it("weeks start on Monday, UTC", () => {
    // 2023-07-02 is a Sunday: its week began on Monday 2023-06-26.
    expect(bucketOf("20230702235959", "week")).toBe("20230626000000");
    expect(bucketOf("20230703000000", "week")).toBe("20230703000000");
    expect(bucketsOf("20230628120000", "20230710000000", "week")).toEqual([
      { start: "20230626000000", end: "20230702235959" },
      { start: "20230703000000", end: "20230709235959" },
      { start: "20230710000000", end: "20230716235959" },
    ]);
  });

  it("hours, days and months have their natural bounds", () => {
    expect(bucketsOf("20240131223000", "20240201003000", "hour").map((b) => b.start)).toEqual([
      "20240131220000",
      "20240131230000",
      "20240201000000",
    ]);
    expect(bucketsOf("20240228000000", "20240301000000", "day").map((b) => b.end)).toEqual([
      "20240228235959",
      "20240229235959",
      "20240301235959",
    ]);
    expect(bucketsOf("20231215000000", "20240210000000", "month")).toEqual([
      { start: "20231201000000", end: "20231231235959" },
      { start: "20240101000000", end: "20240131235959" },
      { start: "20240201000000", end: "20240229235959" },
    ]);
    expect(bucketsOf("20231215000000", "20240210000000", "all")).toEqual([{ start: "20231215000000", end: "20240210000000" }]);
  });

  it("counts buckets without listing them, equal to the list", () => {
    for (const interval of ["hour", "day", "week", "month", "all"] as const) {
      expect(bucketCount("20230101000000", "20230301120000", interval)).toBe(
        bucketsOf("20230101000000", "20230301120000", interval).length,
      );
    }
    expect(bucketCount("20240101000000", "20241231235959", "day")).toBe(366);
    expect(bucketCount("20230101000000", "20241231235959", "month")).toBe(24);
  });

  it("finds the start of the last n buckets", () => {
    expect(startOfLast(366, "20241231120000", "day")).toBe("20240101000000");
    expect(startOfLast(3, "20240315000000", "month")).toBe("20240101000000");
    expect(startOfLast(2, "20230702000000", "week")).toBe("20230619000000");
  });
});
