import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpsReceiver } from "../support/https-receiver.js";
import { TestClock } from "../support/test-clock.js";
import { json, type TestServer } from "../support/test-server.js";
import { startPostgresReplicas, type PostgresReplicas } from "./postgres-replicas.js";
import { CHILLIES_Q, createWatch, eventsOf } from "./watch-fixtures.js";

// The scaled shape: two API replicas share one PostgreSQL control store and
// both run the watch scheduler. Running their passes at the same moment, each
// due watch runs once, each event is recorded once and each delivery is
// POSTed once.

const clock = new TestClock(Date.UTC(2023, 6, 2, 16, 0, 0));
let setup: PostgresReplicas;
let replicas: [TestServer, TestServer];
let receiver: HttpsReceiver;

beforeAll(async () => {
  setup = await startPostgresReplicas(clock, "first.gkg.csv");
  ({ replicas, receiver } = setup);
});

afterAll(async () => {
  await setup?.close();
});

describe("watches on two replicas sharing PostgreSQL", () => {
  it("runs each due watch once, records each event once and delivers it once", async () => {
    const [a, b] = replicas;
    const { key } = await a.container.accounts.issueKey("watcher", "archive");
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const body = {
        q: CHILLIES_Q,
        interval_minutes: 15,
        label: `w${i}`,
        ...(i % 3 === 0 ? { webhook_url: receiver.url("localhost") } : {}),
      };
      ids.push(String((await createWatch(i % 2 === 0 ? a : b, body, key)).id));
    }
    const used = async () => (await json<{ credits_used: number }>(await b.get("/account", key))).credits_used;
    const before = await used();

    let runs = 0;
    for (let round = 0; round < 3; round++) {
      const [fromA, fromB] = await Promise.all([a.container.watchJobs!.runner.runDue(), b.container.watchJobs!.runner.runDue()]);
      const ran = [...fromA, ...fromB].map((r) => r.watch_id);
      // Every watch ran in this round, on exactly one replica.
      expect([...ran].sort()).toEqual([...ids].sort());
      runs += ran.length;
      await Promise.all([a.container.watchJobs!.deliverer.deliverDue(), b.container.watchJobs!.deliverer.deliverDue()]);
      clock.advance(15 * 60_000);
    }
    // Each run was charged once (1 credit each), and each delivery attempt 1.
    expect((await used()) - before).toBe(runs + receiver.requests.length);

    for (const id of ids) {
      const { events } = await eventsOf(a, id, "?limit=100", key);
      expect(events.map((e) => e.kind)).toEqual(["new_story"]);
    }
    // Four watches with a webhook, one event each: four POSTs, four distinct deliveries.
    const deliveries = receiver.requests.map((r) => r.headers["x-service-delivery"]);
    expect(deliveries).toHaveLength(4);
    expect(new Set(deliveries).size).toBe(4);
  });
});
