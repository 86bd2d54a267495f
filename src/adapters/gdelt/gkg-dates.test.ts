import { describe, expect, it } from "vitest";
import { parseDateEntry, parseEnhancedDates } from "./gkg-dates.js";

describe("parseEnhancedDates", () => {
  it("formats resolutions 1, 2 and 3 (2016 row -6) and 4 (2023 row -708), distinct", () => {
    expect(parseEnhancedDates("3#4#11#2014#529;2#12#0#2014#867;3#4#9#2014#3502;1#0#0#2014#10;1#0#0#2014#99")).toEqual({
      mentioned_dates: ["2014-04-11", "2014-12", "2014-04-09", "2014"],
      date_mentions: [
        { date: "2014-04-11", precision: "day" },
        { date: "2014-12", precision: "month" },
        { date: "2014-04-09", precision: "day" },
        { date: "2014", precision: "year" },
      ],
    });
    // Resolution 4 is `4#month#day#0`: 4 July, 2 June... (a month and day with no year).
    expect(parseEnhancedDates("4#6#2#0#962;4#10#6#0#1240;1#0#0#1988#2032").mentioned_dates).toEqual([
      "--06-02",
      "--10-06",
      "1988",
    ]);
  });

  it("zero-pads and skips impossible values (synthetic)", () => {
    expect(parseDateEntry("1#0#0#850#1")).toEqual({ date: "0850", precision: "year" });
    expect(parseDateEntry("4#2#29#0#1")).toEqual({ date: "--02-29", precision: "month_day" });
    for (const bad of [
      "1#0#0#0#1",
      "2#13#0#2020#1",
      "3#2#30#2020#1",
      "3#2#29#2023#1",
      "4#4#31#0#1",
      "4#0#5#0#1",
      "5#1#1#2020#1",
      "x",
      "2#a#0#2020#1",
    ]) {
      expect(parseDateEntry(bad), bad).toBeNull();
    }
    expect(parseEnhancedDates("")).toEqual({ mentioned_dates: [], date_mentions: [] });
  });
});
