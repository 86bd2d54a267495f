import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FollowerLease, SlotLedger, SlotListing } from "../../src/ports/slot-ledger.js";

// What every feed ledger must do: a listed slot starts pending, an unlisted one missing; attempts are counted;
// nothing moves a slot out of `ingested`; a corrected listing re-opens a failed slot; an operator's re-try re-opens
// failed and missing ones; rows outlive the process. And one follower lease holder at a time.

export interface SlotLedgerFixture {
  ledger: SlotLedger;
  /** Closes and reopens the same storage, to prove durability. */
  reopen(): Promise<SlotLedger>;
  /** A lease as a replica of its own would hold it. */
  lease(holder: string): FollowerLease;
  dispose(): Promise<void>;
}

const AT = "20260101000000";
const LATER = "20260101001500";

function listed(slot: string, md5 = "0123456789abcdef0123456789abcdef", bytes = 100): SlotListing {
  return { slot, kind: "gkg", bytes, md5, url: `http://mirror/gdeltv2/${slot}.gkg.csv.zip` };
}

export function describeSlotLedgerContract(name: string, setup: () => Promise<SlotLedgerFixture>): void {
  describe(`slot ledger contract: ${name}`, () => {
    let fixture: SlotLedgerFixture;
    let ledger: SlotLedger;

    beforeAll(async () => {
      fixture = await setup();
      ledger = fixture.ledger;
    });

    afterAll(async () => {
      await fixture.dispose();
    });

    it("records a listed slot pending and an unlisted one missing, each once", async () => {
      await ledger.record(
        [listed("20250101000000"), { slot: "20250101001500", kind: "gkg", bytes: null, md5: null, url: null }],
        AT,
      );
      await ledger.record([listed("20250101000000")], LATER);
      const rows = await ledger.list({ from: "20250101000000", to: "20250101001500" });
      expect(rows.map((r) => [r.slot, r.status, r.attempts, r.md5_verified, r.records])).toEqual([
        ["20250101000000", "pending", 0, false, null],
        ["20250101001500", "missing", 0, false, null],
      ]);
      expect(rows[0]?.bytes).toBe(100);
      expect(rows[0]?.first_seen_at).toBe(AT);
      expect(rows[1]?.last_error).toBe("not in the master list");
      // A slot the master list names later is pending again.
      await ledger.record([listed("20250101001500")], LATER);
      expect((await ledger.get("20250101001500", "gkg"))?.status).toBe("pending");
    });

    it("gives due slots oldest first and holds back a slot until its retry time", async () => {
      await ledger.record([listed("20250202003000"), listed("20250202000000"), listed("20250202001500")], AT);
      await ledger.markRetry("20250202000000", "gkg", "404 Not Found", "20260101003000", AT);
      const due = (await ledger.due(LATER, ["gkg"], 100)).map((r) => r.slot).filter((s) => s.startsWith("202502"));
      expect(due).toEqual(["20250202001500", "20250202003000"]);
      const later = (await ledger.due("20260101003000", ["gkg"], 100)).map((r) => r.slot).filter((s) => s.startsWith("202502"));
      expect(later).toEqual(["20250202000000", "20250202001500", "20250202003000"]);
      expect(await ledger.due(LATER, ["translation"], 100)).toEqual([]);
    });

    it("counts attempts and never moves a slot out of ingested", async () => {
      const slot = "20250303000000";
      await ledger.record([listed(slot)], AT);
      await ledger.startAttempt(slot, "gkg", AT);
      await ledger.startAttempt(slot, "gkg", LATER);
      await ledger.markIngested(slot, "gkg", 951, LATER);
      await ledger.markRetry(slot, "gkg", "late", LATER, LATER);
      await ledger.markFailed(slot, "gkg", "bad", LATER);
      await ledger.markMissing(slot, "gkg", "gone", LATER);
      await ledger.reopen(slot, "gkg", LATER);
      await ledger.record([listed(slot, "ffffffffffffffffffffffffffffffff", 5)], LATER);
      const row = await ledger.get(slot, "gkg");
      expect(row).toMatchObject({ status: "ingested", attempts: 2, records: 951, md5_verified: true, last_error: null });
      expect(row?.md5).toBe("0123456789abcdef0123456789abcdef");
      expect(row?.ingested_at).toBe(LATER);
    });

    it("re-opens a failed slot when its listing changes, and on an operator's re-try", async () => {
      const slot = "20250404000000";
      await ledger.record([listed(slot)], AT);
      await ledger.startAttempt(slot, "gkg", AT);
      await ledger.markFailed(slot, "gkg", "md5 mismatch", AT);
      await ledger.record([listed(slot)], LATER);
      expect(await ledger.get(slot, "gkg")).toMatchObject({ status: "failed", last_error: "md5 mismatch", attempts: 1 });
      await ledger.record([listed(slot, "fedcba9876543210fedcba9876543210")], LATER);
      expect(await ledger.get(slot, "gkg")).toMatchObject({
        status: "pending",
        attempts: 0,
        md5: "fedcba9876543210fedcba9876543210",
      });
      await ledger.markMissing(slot, "gkg", "404 Not Found", LATER);
      await ledger.reopen(slot, "gkg", LATER);
      expect(await ledger.get(slot, "gkg")).toMatchObject({ status: "pending", attempts: 0, next_attempt_at: null });
    });

    it("keeps kinds apart and knows each kind's newest slot", async () => {
      await ledger.record([{ ...listed("20250505000000"), kind: "translation" }], AT);
      expect(await ledger.newest("translation")).toBe("20250505000000");
      expect(await ledger.get("20250505000000", "gkg")).toBeUndefined();
      expect((await ledger.list({ kinds: ["translation"] })).map((r) => r.slot)).toEqual(["20250505000000"]);
      expect(await ledger.newest("gkg")).toBe("20250404000000");
    });

    it("keeps every row across a reopen", async () => {
      const before = await ledger.list();
      ledger = await fixture.reopen();
      expect(await ledger.list()).toEqual(before);
    });

    it("lets one holder follow at a time, and hands over on release", async () => {
      const a = fixture.lease("replica-a");
      const b = fixture.lease("replica-b");
      try {
        expect(await a.hold()).toBe(true);
        expect(await b.hold()).toBe(false);
        expect(await a.hold()).toBe(true);
        await a.release();
        expect(await b.hold()).toBe(true);
        expect(await a.hold()).toBe(false);
      } finally {
        await a.release();
        await b.release();
      }
    });
  });
}
