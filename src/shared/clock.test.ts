import { describe, expect, it } from "vitest";
import { replayClock } from "./clock.js";

describe("replay clock", () => {
  it("starts at the given instant and runs on with the real one", () => {
    let real = 1_000_000;
    const clock = replayClock(Date.UTC(2023, 6, 2, 16, 0, 0), { now: () => real });
    expect(new Date(clock.now()).toISOString()).toBe("2023-07-02T16:00:00.000Z");
    real += 90_000;
    expect(new Date(clock.now()).toISOString()).toBe("2023-07-02T16:01:30.000Z");
  });
});
