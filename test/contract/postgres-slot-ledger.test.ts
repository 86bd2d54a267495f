import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { NEWEST_MAX_AGE_MS } from "../../src/usecases/feed/feed-coverage.js";
import { PostgresControlStore } from "../../src/adapters/postgres/control-store.js";
import type { SlotListing } from "../../src/ports/slot-ledger.js";
import { describeSlotLedgerContract } from "./slot-ledger.contract.js";
import { DATABASE_URL, dropSchemas } from "../support/test-shape.js";

// The same contract on a real PostgreSQL server, in a schema of its own that is dropped afterwards.

describeSlotLedgerContract("postgres", async () => {
  const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
  let control = new PostgresControlStore(DATABASE_URL, schema);
  const others: PostgresControlStore[] = [];
  return {
    ledger: control.slotLedger(),
    async reopen() {
      await control.close();
      control = new PostgresControlStore(DATABASE_URL, schema);
      return control.slotLedger();
    },
    lease() {
      const own = new PostgresControlStore(DATABASE_URL, schema);
      others.push(own);
      return own.followerLease();
    },
    async dispose() {
      await control.close();
      for (const other of others) await other.close();
      await dropSchemas([schema]);
    },
  };
});

describe("postgres slot ledger: the newest slot across replicas", () => {
  const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
  const stores: PostgresControlStore[] = [];
  const replica = (): PostgresControlStore => {
    const store = new PostgresControlStore(DATABASE_URL, schema);
    stores.push(store);
    return store;
  };
  const listing = (slot: string): SlotListing => ({ slot, kind: "gkg", bytes: 1, md5: "0".repeat(32), url: `http://m/${slot}` });

  afterAll(async () => {
    for (const store of stores) await store.close();
    await dropSchemas([schema]);
  });

  it("is told at once on the replica that recorded it, on another within the bound asked, and read now unasked", async () => {
    const follower = replica().slotLedger();
    const api = replica().slotLedger();
    await follower.record([listing("20260101000000")], "20260101000500");
    expect(await api.newest("gkg", NEWEST_MAX_AGE_MS)).toBe("20260101000000");
    expect(await follower.newest("gkg", NEWEST_MAX_AGE_MS)).toBe("20260101000000");
    await follower.record([listing("20260101001500")], "20260101002000");
    // The replica that recorded it tells it at once; another may answer from its read of less than the bound ago.
    expect(await follower.newest("gkg", NEWEST_MAX_AGE_MS)).toBe("20260101001500");
    expect(await api.newest("gkg", NEWEST_MAX_AGE_MS)).toBe("20260101000000");
    // Without a bound (as the follower asks, deciding gaps by it), the ledger is read now.
    expect(await api.newest("gkg")).toBe("20260101001500");
    await follower.record([listing("20260101003000")], "20260101003500");
    await new Promise((resolve) => setTimeout(resolve, NEWEST_MAX_AGE_MS + 50));
    expect(await api.newest("gkg", NEWEST_MAX_AGE_MS)).toBe("20260101003000");
  });
});
