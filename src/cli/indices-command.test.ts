import { describe, expect, it } from "vitest";
import { shiftMonth } from "./indices-command.js";

describe("months moved for the index lifecycle", () => {
  it("crosses year ends both ways", () => {
    expect(shiftMonth("202611", 1)).toBe("202612");
    expect(shiftMonth("202612", 1)).toBe("202701");
    expect(shiftMonth("202601", -1)).toBe("202512");
    expect(shiftMonth("202603", -14)).toBe("202501");
    expect(shiftMonth("202603", 0)).toBe("202603");
  });
});
