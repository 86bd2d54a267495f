import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord, WatchEvent, WatchRecord, WatchStore } from "../../src/ports/watch-store.js";

// What every WatchStore adapter must do: the cap checked with the insert,
// tenants kept apart, a due watch claimed by one holder at a time, events
// recorded once, nothing written for a deleted watch, and a durable outbox.

export interface WatchFixture {
  store: WatchStore;
  /** Closes and reopens the same storage, to prove durability. */
  reopen(): Promise<WatchStore>;
  dispose(): Promise<void>;
}

let serial = 0;

function watch(tenant: string, overrides: Partial<WatchRecord> = {}): WatchRecord {
  serial++;
  return {
    id: `wt_${tenant}_${serial}`,
    tenant_id: tenant,
    key_id: `key_${tenant}`,
    label: "",
    query: { q: "biden", language: "eng" },
    interval_minutes: 60,
    minimum_outlets: 2,
    notify_on: ["new_story", "story_growth"],
    webhook_url: null,
    webhook_secret: null,
    status: "active",
    created_at: "20261122000000",
    last_run_at: null,
    next_run_at: "20261122000000",
    watermark: null,
    consecutive_failures: 0,
    consecutive_incomplete: 0,
    ...overrides,
  };
}

function event(watchId: string, recordedAt: string, story: string): WatchEvent {
  return {
    id: `${recordedAt}-new_story-${story}`,
    kind: "new_story",
    watch_id: watchId,
    recorded_at: recordedAt,
    occurred_at: recordedAt,
    story_id: story,
    title: `story ${story}`,
    url: null,
    count: 3,
    outlets: 3,
  };
}

function run(w: WatchRecord, holder: string, events: WatchEvent[], overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    watchId: w.id,
    holder,
    states: events.map((e) => ({ story_id: e.story_id, outlets: e.outlets, last_seen_at: e.recorded_at })),
    forgetBefore: "20261101000000",
    events,
    patch: {
      status: "active",
      last_run_at: "20261122000000",
      next_run_at: "20261122010000",
      watermark: "20261122000000",
      consecutive_incomplete: 0,
    },
    deliverAtMs: 1_000,
    ...overrides,
  };
}

export function describeWatchStoreContract(name: string, create: () => Promise<WatchFixture>): void {
  describe(`WatchStore contract: ${name}`, () => {
    let fixture: WatchFixture;
    let store: WatchStore;
    const t0 = 1_800_000_000_000;

    beforeAll(async () => {
      fixture = await create();
      store = fixture.store;
    });

    afterAll(async () => {
      await fixture.dispose();
    });

    it("inserts up to the cap, lists oldest first, and keeps tenants apart", async () => {
      const first = watch("capped");
      const second = watch("capped", { created_at: "20261122000000" });
      expect(await store.insertWatch(first, 2)).toEqual({ inserted: true });
      expect(await store.insertWatch(second, 2)).toEqual({ inserted: true });
      expect(await store.insertWatch(watch("capped"), 2)).toEqual({ inserted: false, count: 2 });
      expect(await store.countWatches("capped")).toBe(2);
      expect((await store.listWatches("capped")).map((w) => w.id)).toEqual([first.id, second.id]);
      expect(await store.findWatch("capped", first.id)).toEqual(first);
      expect(await store.findWatch("someone-else", first.id)).toBeUndefined();
      expect(await store.deleteWatch("someone-else", first.id)).toBe(false);
      expect(await store.findWatch("capped", first.id)).toEqual(first);
    });

    it("keeps the cap exact when creates race", async () => {
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => store.insertWatch(watch("racing"), 3)));
      expect(outcomes.filter((o) => o.inserted)).toHaveLength(3);
      expect(await store.countWatches("racing")).toBe(3);
    });

    it("lets one holder claim a due watch while its lease lives", async () => {
      const due = watch("claims", { next_run_at: "20261122000000" });
      const later = watch("claims", { next_run_at: "20261122050000" });
      await store.insertWatch(due, 10);
      await store.insertWatch(later, 10);
      const claimedA = await store.claimDueWatches("20261122000100", t0, "replica-a", 60_000, 10);
      expect(claimedA.map((w) => w.id)).toContain(due.id);
      expect(claimedA.map((w) => w.id)).not.toContain(later.id);
      expect((await store.claimDueWatches("20261122000100", t0, "replica-b", 60_000, 10)).map((w) => w.id)).not.toContain(due.id);
      // A holder that died: its lease runs out and another replica takes over; the first can no longer write.
      const taken = await store.claimDueWatches("20261122000100", t0 + 61_000, "replica-b", 60_000, 10);
      expect(taken.map((w) => w.id)).toContain(due.id);
      expect(await store.completeRun(run(due, "replica-a", [event(due.id, "20261122000000", "s1")]))).toBeUndefined();
      expect(await store.completeRun(run(due, "replica-b", []))).toEqual([]);
      expect(await store.findWatch("claims", due.id)).toMatchObject({
        next_run_at: "20261122010000",
        watermark: "20261122000000",
      });
      expect(await store.listEvents(due.id, undefined, 10)).toEqual([]);
    });

    it("records each event once, remembers stories, forgets the unseen, and pages events newest first", async () => {
      const w = watch("events");
      await store.insertWatch(w, 10);
      await store.claimDueWatches("20261122000000", t0, "h", 60_000, 100);
      const first = [event(w.id, "20261122000000", "a"), event(w.id, "20261122000000", "b")];
      expect(await store.completeRun(run(w, "h", first))).toEqual(first);
      // The same run repeated names the same events: none is recorded twice.
      await store.claimDueWatches("20261122010000", t0 + 1, "h", 60_000, 100);
      const again = [...first, event(w.id, "20261122010000", "c")];
      expect(await store.completeRun(run(w, "h", again))).toEqual([again[2]]);
      const page1 = await store.listEvents(w.id, undefined, 2);
      expect(page1.map((e) => e.story_id)).toEqual(["c", "b"]);
      expect(page1[0]).toMatchObject({ delivery_status: null, title: "story c" });
      expect((await store.listEvents(w.id, page1[1]?.id, 2)).map((e) => e.story_id)).toEqual(["a"]);
      expect([...(await store.storyStates(w.id, ["a", "c", "zz"])).keys()].sort()).toEqual(["a", "c"]);
      // A run that forgets stories unseen since before the second run.
      await store.claimDueWatches("20261122020000", t0 + 2, "h", 60_000, 100);
      await store.completeRun(run(w, "h", [], { forgetBefore: "20261122010000" }));
      expect([...(await store.storyStates(w.id, ["a", "b", "c"])).keys()]).toEqual(["c"]);
      expect(await store.pruneEvents("20261122010000")).toBe(2);
      expect((await store.listEvents(w.id, undefined, 10)).map((e) => e.story_id)).toEqual(["c"]);
    });

    it("removes a deleted watch with its state and events, and a run in progress does not bring it back", async () => {
      const w = watch("deleted");
      await store.insertWatch(w, 10);
      await store.claimDueWatches("20261122000000", t0, "h", 60_000, 100);
      expect(await store.deleteWatch("deleted", w.id)).toBe(true);
      expect(await store.completeRun(run(w, "h", [event(w.id, "20261122000000", "x")]))).toBeUndefined();
      expect(await store.findWatch("deleted", w.id)).toBeUndefined();
      expect(await store.listEvents(w.id, undefined, 10)).toEqual([]);
      expect((await store.storyStates(w.id, ["x"])).size).toBe(0);
      expect(await store.deleteWatch("deleted", w.id)).toBe(false);
    });

    it("keeps a durable outbox: retries, held credits, failures in a row and recovery", async () => {
      const w = watch("outbox", { webhook_url: "https://hooks.example.com/in", webhook_secret: "whsec_x" });
      await store.insertWatch(w, 10);
      await store.claimDueWatches("20261122000000", t0, "h", 60_000, 100);
      const events = Array.from({ length: 9 }, (_, i) => event(w.id, "20261122000000", `s${i}`));
      await store.completeRun(run(w, "h", events, { deliverAtMs: t0 }));
      expect(await store.claimDueDeliveries(t0 - 1, "d", 60_000, 100)).toEqual([]);
      const jobs = await store.claimDueDeliveries(t0, "d", 60_000, 100);
      expect(jobs).toHaveLength(9);
      expect(jobs[0]).toMatchObject({ status: "pending", attempts: 0, watch: { id: w.id, webhook_secret: "whsec_x" } });
      // Claimed deliveries are not handed out twice while leased.
      expect(await store.claimDueDeliveries(t0, "other", 60_000, 100)).toEqual([]);
      const [retried, held, ...rest] = jobs as [(typeof jobs)[0], (typeof jobs)[0], ...typeof jobs];
      await store.settleDelivery(retried.delivery_id, "d", {
        outcome: "retry",
        attempts: 1,
        nextAttemptMs: t0 + 60_000,
        error: "503",
      });
      await store.settleDelivery(held.delivery_id, "d", { outcome: "held_credits", nextAttemptMs: t0 + 3_600_000 });
      for (const job of rest)
        await store.settleDelivery(job.delivery_id, "d", { outcome: "failed", attempts: 4, error: "refused" });
      // Seven failed in a row: still active.
      expect(await store.findWatch("outbox", w.id)).toMatchObject({ status: "active", consecutive_failures: 7 });

      store = await fixture.reopen();
      const statuses = new Map((await store.listEvents(w.id, undefined, 100)).map((e) => [e.story_id, e.delivery_status]));
      expect(statuses.get(held.event.story_id)).toBe("held_credits");
      expect(statuses.get(retried.event.story_id)).toBe("pending");
      const retry = await store.claimDueDeliveries(t0 + 60_000, "d2", 60_000, 100);
      expect(retry.map((j) => [j.delivery_id, j.attempts])).toEqual([[retried.delivery_id, 1]]);
      await store.settleDelivery(retry[0]!.delivery_id, "d2", { outcome: "failed", attempts: 4, error: "refused" });
      expect(await store.findWatch("outbox", w.id)).toMatchObject({ status: "failing", consecutive_failures: 8 });
      // A settlement from a holder that lost its lease changes nothing.
      const heldAgain = await store.claimDueDeliveries(t0 + 3_600_000, "d3", 60_000, 100);
      expect(heldAgain.map((j) => j.status)).toEqual(["held_credits"]);
      await store.settleDelivery(heldAgain[0]!.delivery_id, "stale", { outcome: "delivered", attempts: 1 });
      expect(await store.findWatch("outbox", w.id)).toMatchObject({ status: "failing" });
      await store.settleDelivery(heldAgain[0]!.delivery_id, "d3", { outcome: "delivered", attempts: 1 });
      expect(await store.findWatch("outbox", w.id)).toMatchObject({ status: "active", consecutive_failures: 0 });
      // Retention: a settled delivery's event goes; one still pending keeps it until the deliverer fails it.
      await store.claimDueWatches("20261122010000", t0, "h", 60_000, 100);
      await store.completeRun(run(w, "h", [event(w.id, "20261122010000", "late")], { deliverAtMs: t0 }));
      expect(await store.pruneEvents("20991231000000")).toBeGreaterThanOrEqual(9);
      expect((await store.listEvents(w.id, undefined, 100)).map((e) => [e.story_id, e.delivery_status])).toEqual([
        ["late", "pending"],
      ]);
    });

    it("reschedules a paused watch and releases its claim", async () => {
      const w = watch("paused");
      await store.insertWatch(w, 10);
      await store.claimDueWatches("20261122000000", t0, "h", 60_000, 100);
      await store.reschedule(w.id, "h", "paused_key", "20261122010000");
      expect(await store.findWatch("paused", w.id)).toMatchObject({ status: "paused_key", next_run_at: "20261122010000" });
      const claimed = await store.claimDueWatches("20261122010000", t0 + 1, "h2", 60_000, 100);
      expect(claimed.map((c) => c.id)).toContain(w.id);
    });
  });
}
