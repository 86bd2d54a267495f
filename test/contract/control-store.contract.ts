import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ControlStore } from "../../src/ports/control-store.js";

// What every ControlStore adapter must do: tenants, hashed keys, and exact, durable credit counters.

export interface ControlFixture {
  store: ControlStore;
  /** Closes and reopens the same storage, to prove durability. */
  reopen(): Promise<ControlStore>;
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
      };
      await store.insertKey(record, "hash-1");
      expect(await store.findKeyOwner("hash-1")).toEqual({ key: record, tenant });
      expect(await store.findKeyOwner("hash-2")).toBeUndefined();
      expect(await store.revokeKey("key_1", "20261122010000")).toBe(true);
      expect(await store.revokeKey("key_1", "20261122020000")).toBe(false);
      expect((await store.findKeyOwner("hash-1"))?.key.revoked_at).toBe("20261122010000");
      expect((await store.listKeys(tenant.id)).map((k) => k.key_id)).toEqual(["key_1"]);
    });

    it("counts credits per month exactly, refills the minute bucket continuously, and survives a restart", async () => {
      const tenant = await store.createTenant("counted", "free");
      const t0 = 1_800_000_000_000;
      expect(await store.charge(tenant.id, 3, "202611", 30, t0)).toEqual({ credits_used: 3, minute_tokens: 27 });
      expect(await store.charge(tenant.id, 2, "202611", 30, t0)).toEqual({ credits_used: 5, minute_tokens: 25 });
      // 30 per minute refills 1 credit every 2 seconds, up to the minute's 30.
      expect((await store.creditState(tenant.id, "202611", 30, t0 + 4_000)).minute_tokens).toBeCloseTo(27);
      expect((await store.creditState(tenant.id, "202611", 30, t0 + 600_000)).minute_tokens).toBe(30);
      expect((await store.creditState(tenant.id, "202612", 30, t0)).credits_used).toBe(0);

      store = await fixture.reopen();
      expect((await store.creditState(tenant.id, "202611", 30, t0)).credits_used).toBe(5);
    });
  });
}
