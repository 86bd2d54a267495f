import { describe, expect, it } from "vitest";
import { QueryLedger } from "./query-ledger.js";

describe("QueryLedger", () => {
  it("counts queries issued and claims optional ones only while the cap affords them", () => {
    const ledger = new QueryLedger(16);
    ledger.record(4, { partitionsRead: ["202401", "202402"], partitionsFailed: [] });
    expect(ledger.claim(2)).toBe(true);
    for (let i = 0; i < 4; i++) ledger.claim(2);
    expect(ledger.spent).toBe(14);
    expect(ledger.claim(4)).toBe(false);
    expect(ledger.spent).toBe(14);
    expect(ledger.claim(2)).toBe(true);
    expect(ledger.claim(1)).toBe(false);
    expect(ledger.spent).toBe(16);
  });

  it("is partial when a monthly index failed, and 503 when none could be read", () => {
    const ledger = new QueryLedger();
    ledger.note({ partitionsRead: ["202402"], partitionsFailed: [{ partition: "202401", kind: "timed_out", reason: "budget" }] });
    expect(ledger.completeness()).toEqual({ partial: true, coverage: "timed_out" });
    const none = new QueryLedger();
    none.note({ partitionsRead: [], partitionsFailed: [{ partition: "202401", kind: "unreadable", reason: "locked" }] });
    expect(() => none.completeness()).toThrow(/not evidence/);
  });
});
