import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SqliteControlStore } from "../../adapters/sqlite/control-store.js";
import type { CreditState, HeldCredits, Rates } from "../../ports/control-store.js";
import { systemClock } from "../../shared/clock.js";
import { AccountService } from "./account-service.js";
import { CreditService } from "./credit-service.js";

// A call whose settle cannot reach the control store (it went away as the call ended) is answered with an error:
// its hold must not stay counted as used. The store here is real; only its next settle is made to fail, as a
// PostgreSQL restart makes it fail.

class StoreLosingOneSettle extends SqliteControlStore {
  failNextSettle = false;
  override async settle(hold: HeldCredits, charged: number, rates: Rates, nowMs: number): Promise<CreditState> {
    if (this.failNextSettle) {
      this.failNextSettle = false;
      throw new Error("connection terminated");
    }
    return super.settle(hold, charged, rates, nowMs);
  }
}

describe("CreditService when a settle fails", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("gives the call's hold back at the next sweep, so credits_used equals what was charged", async () => {
    const dir = mkdtempSync(join(tmpdir(), "newsindex-credits-"));
    dirs.push(dir);
    const store = new StoreLosingOneSettle(join(dir, "control.db"));
    try {
      const accounts = new AccountService(store, systemClock);
      const credits = new CreditService(store, systemClock);
      const caller = await accounts.authenticate((await accounts.issueKey("t", "archive")).key);
      const price = { min: 1, max: 4, breakdown: [] };
      const metering = { as: "call" as const, operation: "GET /search" };
      await credits.metered(caller, price, metering, async (meter) => meter.took(2));
      expect((await credits.account(caller)).credits_used).toBe(2);

      store.failNextSettle = true;
      await expect(credits.metered(caller, price, metering, async (meter) => meter.took(3))).rejects.toThrow(/terminated/);
      // Held while the store was away: counted as used until given back.
      expect((await credits.account(caller)).credits_used).toBe(6);
      expect(await credits.releaseAbandonedHolds()).toBe(1);
      expect((await credits.account(caller)).credits_used).toBe(2);
      // Given back once only.
      expect(await credits.releaseAbandonedHolds()).toBe(0);
      expect((await credits.account(caller)).credits_used).toBe(2);
    } finally {
      await store.close();
    }
  });
});
