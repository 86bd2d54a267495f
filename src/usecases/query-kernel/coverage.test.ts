import { describe, expect, it } from "vitest";
import { completeness } from "./coverage.js";

describe("completeness", () => {
  const unreadable = (partition: string) => ({ partition, kind: "unreadable" as const, reason: "missing" });
  const timedOut = (partition: string) => ({ partition, kind: "timed_out" as const, reason: "budget" });

  it("is recent_unavailable when the newest monthly index could not be read, before range_too_wide", () => {
    expect(completeness([unreadable("202607"), unreadable("202601")], ["202604"])).toEqual({
      partial: true,
      coverage: "recent_unavailable",
    });
    expect(completeness([unreadable("202601")], ["202607"])).toEqual({ partial: true, coverage: "range_too_wide" });
  });

  it("is timed_out when the budget left indexes unread, even the newest (every month read at once)", () => {
    expect(completeness([timedOut("202607"), timedOut("202606")], [])).toEqual({ partial: true, coverage: "timed_out" });
    expect(completeness([timedOut("202607")], ["202606"])).toEqual({ partial: true, coverage: "timed_out" });
    // An unreadable older index still says where the gap is.
    expect(completeness([timedOut("202607"), unreadable("202601")], ["202606"])).toEqual({
      partial: true,
      coverage: "range_too_wide",
    });
  });
});
