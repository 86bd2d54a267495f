import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ControlStore } from "../../src/ports/control-store.js";

// What every ControlStore adapter must do: tenants, hashed keys, and exact, durable credit counters.

export interface ControlFixture {
  store: ControlStore;
  /** Closes and reopens the same storage, to prove durability. */
  reopen(): Promise<ControlStore>;
  /** A second store on the same storage: another process or replica sharing it; the test closes it. */
  openAnother(): ControlStore;
  dispose(): Promise<void>;
}

export function describeControlStoreContract(name: string, create: () => Promise<ControlFixture>): void {
  describe(`ControlStore contract: ${name}`, () => {
    let fixture: ControlFixture;
    let store: ControlStore;

    beforeAll(async () => {
      fixture = await create();
      store = fixture.store;
    });

    afterAll(async () => {
      await fixture.dispose();
    });

    it("keeps tenants unique by name", async () => {
      const tenant = await store.createTenant("acme", "build");
      expect(await store.findTenant("acme")).toEqual(tenant);
      await expect(store.createTenant("acme", "free")).rejects.toThrow();
      expect(await store.findTenant("nobody")).toBeUndefined();
      expect(await store.findTenantById(tenant.id)).toEqual(tenant);
      expect(await store.findTenantById("tn_missing")).toBeUndefined();
    });

    it("finds a key's owner by hash and records revocation", async () => {
      const tenant = await store.createTenant("keyed", "free");
      const record = {
        key_id: "key_1",
        tenant_id: tenant.id,
        prefix: "nk_abc",
        created_at: "20261122000000",
        expires_at: null,
        revoked_at: null,
        last_used_at: null,
      };
      await store.insertKey(record, "hash-1");
      expect(await store.findKeyOwner("hash-1")).toEqual({ key: record, tenant });
      expect(await store.findKeyOwner("hash-2")).toBeUndefined();
      expect(await store.revokeKey("key_1", "20261122010000")).toBe(true);
      expect(await store.revokeKey("key_1", "20261122020000")).toBe(false);
      expect((await store.findKeyOwner("hash-1"))?.key.revoked_at).toBe("20261122010000");
      expect((await store.listKeys(tenant.id)).map((k) => k.key_id)).toEqual(["key_1"]);
    });

    it("reserves only what both budgets allow, changes nothing on a refusal, and releases exactly", async () => {
      const tenant = await store.createTenant("counted", "free");
      const t0 = 1_800_000_000_000;
      const rates = { creditsPerMinute: 30 };
      const base = { tenantId: tenant.id, period: "202611", rates, monthlyCap: 40 };
      expect(await store.reserve({ ...base, nowMs: t0, credits: 3, minuteNeeded: 3 })).toEqual({
        admitted: true,
        state: { credits_used: 3, minute_tokens: 27 },
      });
      // The minute bucket refuses, and nothing moves.
      const refused = await store.reserve({ ...base, nowMs: t0, credits: 28, minuteNeeded: 28 });
      expect(refused).toEqual({ admitted: false, refusedBy: "minute", state: { credits_used: 3, minute_tokens: 27 } });
      // The monthly cap refuses before the bucket is looked at.
      expect((await store.reserve({ ...base, nowMs: t0, credits: 38, minuteNeeded: 1 })).admitted).toBe(false);
      expect(
        ((await store.reserve({ ...base, nowMs: t0, credits: 38, minuteNeeded: 1 })) as { refusedBy: string }).refusedBy,
      ).toBe("monthly");
      // Releasing gives back to both counters; the bucket never exceeds its size.
      expect(await store.release(tenant.id, "202611", 2, rates, t0)).toEqual({ credits_used: 1, minute_tokens: 29 });
      // 30 per minute refills one credit every 2 s.
      expect((await store.creditState(tenant.id, "202611", rates, t0 + 4_000)).minute_tokens).toBeCloseTo(30);
      // A call larger than the bucket may take it negative; the refill pays it back.
      const big = await store.reserve({ ...base, monthlyCap: null, nowMs: t0 + 60_000, credits: 100, minuteNeeded: 30 });
      expect(big).toEqual({ admitted: true, state: { credits_used: 101, minute_tokens: -70 } });
      expect((await store.creditState(tenant.id, "202611", rates, t0 + 60_000 + 120_000)).minute_tokens).toBeCloseTo(-10);
      expect((await store.creditState(tenant.id, "202612", rates, t0)).credits_used).toBe(0);

      store = await fixture.reopen();
      expect((await store.creditState(tenant.id, "202611", rates, t0)).credits_used).toBe(101);
    });

    it("admits concurrent reservations and settles of one tenant one at a time, from two stores", async () => {
      // Every reservation and settle is in flight at once, half through a second store (another replica).
      const tenant = await store.createTenant("crowded", "build");
      const t0 = 1_800_000_000_000;
      const rates = { creditsPerMinute: 100 };
      const base = { tenantId: tenant.id, period: "202611", rates, monthlyCap: 250, nowMs: t0 };
      const other = fixture.openAnother();
      try {
        const stores = [store, other];
        const reservations = await Promise.all(
          Array.from({ length: 24 }, (_, i) =>
            (stores[i % 2] as ControlStore).reserve({ ...base, credits: 10, minuteNeeded: 10, holdId: `crowd_${i}` }),
          ),
        );
        // Exactly the bucket's 100 credits are admitted, whatever the order.
        expect(reservations.filter((r) => r.admitted)).toHaveLength(10);
        const states = await Promise.all(
          reservations.flatMap((r, i) =>
            r.admitted
              ? [
                  (stores[i % 2] as ControlStore).settle(
                    { holdId: `crowd_${i}`, tenantId: tenant.id, period: "202611", credits: 10, operation: "GET /search" },
                    4,
                    rates,
                    t0,
                  ),
                ]
              : [],
          ),
        );
        // Each settle saw those before it: no two answer the same counter.
        expect(new Set(states.map((s) => s.credits_used)).size).toBe(10);
        expect(await store.creditState(tenant.id, "202611", rates, t0)).toEqual({ credits_used: 40, minute_tokens: 60 });
        expect(await store.usage(tenant.id, "20270115", "20270115")).toEqual([
          { day: "20270115", operation: "GET /search", calls: 10, credits: 40 },
        ]);
      } finally {
        await other.close();
      }
    });

    it("never counts refill time twice when a call stamped earlier commits after a later one", async () => {
      // Replicas stamp a call before it waits for the tenant's lock, so stamps can commit out of order.
      const tenant = await store.createTenant("interleaved", "build");
      const t0 = 1_800_000_000_000;
      const rates = { creditsPerMinute: 300 };
      const base = { tenantId: tenant.id, period: "202611", rates, monthlyCap: null };
      await store.reserve({ ...base, nowMs: t0, credits: 100, minuteNeeded: 100 });
      await store.reserve({ ...base, nowMs: t0 + 30_000, credits: 250, minuteNeeded: 250 });
      expect((await store.reserve({ ...base, nowMs: t0 + 20_000, credits: 50, minuteNeeded: 50 })).admitted).toBe(true);
      // 300 - 100, +150 refilled over 30 s (capped at 300), -250, -50: nothing is left at t0 + 30 s.
      expect((await store.creditState(tenant.id, "202611", rates, t0 + 30_000)).minute_tokens).toBeCloseTo(0);
      expect((await store.reserve({ ...base, nowMs: t0 + 30_000, credits: 1, minuteNeeded: 1 })).admitted).toBe(false);
    });

    it("settles a hold to its charge, and releases the holds of a store that ended, never of a live one", async () => {
      const tenant = await store.createTenant("held", "build");
      const t0 = 1_800_000_000_000;
      const rates = { creditsPerMinute: 300 };
      const base = { tenantId: tenant.id, period: "202611", rates, monthlyCap: null, nowMs: t0 };
      const held = (holdId: string, credits: number) => ({
        holdId,
        tenantId: tenant.id,
        period: "202611",
        credits,
        operation: "GET /search",
      });
      const used = async () => (await store.creditState(tenant.id, "202611", rates, t0)).credits_used;

      // Settled: charged what it took, the rest given back.
      await store.reserve({ ...base, credits: 5, minuteNeeded: 5, holdId: "hold_a" });
      expect(await store.settle(held("hold_a", 5), 2, rates, t0)).toEqual({ credits_used: 2, minute_tokens: 298 });

      // Holds of running stores, this one or another on the same storage, are never released.
      const other = fixture.openAnother();
      await store.reserve({ ...base, credits: 7, minuteNeeded: 7, holdId: "hold_b" });
      await other.reserve({ ...base, credits: 11, minuteNeeded: 11, holdId: "hold_c" });
      expect(await store.releaseAbandonedHolds()).toBe(0);
      expect(await other.releaseAbandonedHolds()).toBe(0);
      expect(await used()).toBe(2 + 7 + 11);

      // The other ends with its hold unsettled (a crash): its hold is given back, once; this store's stays.
      await other.close();
      expect(await store.releaseAbandonedHolds()).toBe(1);
      expect(await store.releaseAbandonedHolds()).toBe(0);
      expect(await used()).toBe(2 + 7);

      // A hold settled after it was released is charged once, what it took.
      await store.settle(held("hold_c", 11), 3, rates, t0);
      expect(await used()).toBe(2 + 7 + 3);
      await store.settle(held("hold_b", 7), 4, rates, t0);
      expect(await used()).toBe(2 + 4 + 3);
    });

    it("admits messages up to the rate, refilled continuously", async () => {
      const tenant = await store.createTenant("chatty", "free");
      const t0 = 1_800_000_000_000;
      const results = [];
      for (let i = 0; i < 4; i++) results.push((await store.takeMessage(tenant.id, 3, t0)).admitted);
      expect(results).toEqual([true, true, true, false]);
      expect((await store.takeMessage(tenant.id, 3, t0 + 20_000)).admitted).toBe(true);
    });

    it("changes plan and suspension, and expires keys", async () => {
      const tenant = await store.createTenant("mutable", "free");
      await store.setPlan(tenant.id, "scale");
      await store.setSuspended(tenant.id, true);
      expect(await store.findTenant("mutable")).toMatchObject({ plan: "scale", suspended: true });
      const record = {
        key_id: "key_x",
        tenant_id: tenant.id,
        prefix: "nk_x",
        created_at: "20261122000000",
        expires_at: null,
        revoked_at: null,
        last_used_at: null,
      };
      await store.insertKey(record, "hash-x");
      expect(await store.expireKey("key_x", "20261122003000")).toBe(true);
      expect(await store.findKey("key_x")).toMatchObject({ expires_at: "20261122003000" });
      expect(await store.expireKey("key_missing", "20261122003000")).toBe(false);
    });

    it("records a key's last use, never moving it back", async () => {
      const tenant = await store.createTenant("used", "free");
      const record = {
        key_id: "key_used",
        tenant_id: tenant.id,
        prefix: "nk_used",
        created_at: "20261122000000",
        expires_at: null,
        revoked_at: null,
        last_used_at: null,
      };
      await store.insertKey(record, "hash-used");
      await store.touchKey("key_used", "20261122010000");
      await store.touchKey("key_used", "20261122005900");
      expect((await store.findKey("key_used"))?.last_used_at).toBe("20261122010000");
      expect((await store.findKeyOwner("hash-used"))?.key.last_used_at).toBe("20261122010000");
      expect((await store.listKeys(tenant.id))[0]?.last_used_at).toBe("20261122010000");
    });

    it("counts calls and credits per UTC day and operation as calls settle, durably", async () => {
      const tenant = await store.createTenant("metered", "build");
      const rates = { creditsPerMinute: 300 };
      const day1 = Date.UTC(2026, 10, 3, 23, 59, 0);
      const day2 = Date.UTC(2026, 10, 4, 0, 1, 0);
      const base = { tenantId: tenant.id, period: "202611", rates, monthlyCap: null, minuteNeeded: 1 };
      const call = async (holdId: string, operation: string, credits: number, charged: number, nowMs: number) => {
        await store.reserve({ ...base, nowMs, credits, holdId });
        await store.settle({ holdId, tenantId: tenant.id, period: "202611", credits, operation }, charged, rates, nowMs);
      };
      await call("h1", "GET /search", 3, 1, day1);
      await call("h2", "GET /search", 3, 2, day1);
      await call("h3", "GET /stories", 5, 5, day2);
      await store.countFreeCall(tenant.id, "GET /account", day2);
      // An export's unsent rows given back: credits only, the call stays counted.
      await store.release(tenant.id, "202611", 2, rates, day2, "GET /stories");
      expect(await store.usage(tenant.id, "20261101", "20261130")).toEqual([
        { day: "20261103", operation: "GET /search", calls: 2, credits: 3 },
        { day: "20261104", operation: "GET /account", calls: 1, credits: 0 },
        { day: "20261104", operation: "GET /stories", calls: 1, credits: 3 },
      ]);
      expect(await store.usage(tenant.id, "20261104", "20261104")).toHaveLength(2);
      // The month's counter agrees with the sum of the days.
      expect((await store.creditState(tenant.id, "202611", rates, day2)).credits_used).toBe(6);
      const other = await store.createTenant("metered-other", "build");
      expect(await store.usage(other.id, "20261101", "20261130")).toEqual([]);
      store = await fixture.reopen();
      expect(await store.usage(tenant.id, "20261103", "20261103")).toEqual([
        { day: "20261103", operation: "GET /search", calls: 2, credits: 3 },
      ]);
    });

    it("keeps console users unique by email, found whatever its case", async () => {
      const tenant = await store.createTenant("staffed", "build");
      const user = { user_id: "usr_1", tenant_id: tenant.id, email: "Ana@Example.org", created_at: "20261122000000" };
      await store.createUser(user, "scrypt$hash");
      expect(await store.findUser("ana@example.ORG")).toEqual({
        user: { ...user, email: "ana@example.org" },
        password_hash: "scrypt$hash",
      });
      await expect(store.createUser({ ...user, user_id: "usr_2" }, "x")).rejects.toThrow();
      expect(await store.findUser("nobody@example.org")).toBeUndefined();
      expect((await store.listUsers(tenant.id)).map((u) => u.user_id)).toEqual(["usr_1"]);
      expect((await store.listUsers()).some((u) => u.user_id === "usr_1")).toBe(true);
      expect(await store.setPassword("usr_1", "scrypt$new")).toBe(true);
      expect((await store.findUser("ana@example.org"))?.password_hash).toBe("scrypt$new");
      expect(await store.setPassword("usr_missing", "x")).toBe(false);
    });

    it("keeps console sessions by hash until deleted or expired", async () => {
      const tenant = await store.createTenant("signed-in", "build");
      await store.createUser(
        { user_id: "usr_s", tenant_id: tenant.id, email: "s@example.org", created_at: "20261122000000" },
        "h",
      );
      const session = {
        session_hash: "sess-1",
        role: "tenant" as const,
        tenant_id: tenant.id,
        user_id: "usr_s",
        csrf_token: "csrf-1",
        created_at: "20261122000000",
        expires_at: "20261122080000",
      };
      const operator = {
        ...session,
        session_hash: "sess-2",
        role: "operator" as const,
        tenant_id: null,
        user_id: null,
        expires_at: "20261122120000",
      };
      await store.createSession(session);
      await store.createSession(operator);
      expect(await store.findSession("sess-1")).toEqual(session);
      expect(await store.findSession("sess-2")).toEqual(operator);
      expect(await store.deleteExpiredSessions("20261122080000")).toBe(1);
      expect(await store.findSession("sess-1")).toBeUndefined();
      await store.deleteSession("sess-2");
      expect(await store.findSession("sess-2")).toBeUndefined();
    });
  });
}
