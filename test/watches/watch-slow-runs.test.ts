import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunReport } from "../../src/app/watch-runs/watch-runner.js";
import type { HttpsReceiver } from "../support/https-receiver.js";
import { TestClock } from "../support/test-clock.js";
import { json, type TestServer } from "../support/test-server.js";
import { startPostgresReplicas, type PostgresReplicas } from "./postgres-replicas.js";
import { CHILLIES_Q, createWatch } from "./watch-fixtures.js";

// Two replicas on one PostgreSQL control store, and runs or webhook deliveries slower than a claim's lease (5 and 2
// minutes): a replica that claimed several due watches (deliveries) at once and ran them one after another would
// still be on the first when the others' claims ran out, so the other replica would take them over and both would
// run and charge (POST) them. A replica claims each as it starts it, so a slow one delays only itself.

const MINUTE = 60_000;
const clock = new TestClock(Date.UTC(2023, 6, 2, 16, 0, 0));
let setup: PostgresReplicas;
let replicas: [TestServer, TestServer];
let receiver: HttpsReceiver;

beforeAll(async () => {
  setup = await startPostgresReplicas(clock, "slow-runs.gkg.csv");
  ({ replicas, receiver } = setup);
});

afterAll(async () => {
  await setup?.close();
});

/**
 * Runs `work` on replica a, each of whose metered jobs (a watch run, a delivery attempt) takes `minutes`; after
 * its second, replica b does `meanwhile`.
 */
async function slowOnA<A, B>(minutes: number, work: () => Promise<A>, meanwhile: () => Promise<B>): Promise<[A, B | undefined]> {
  const credits = replicas[0].container.credits;
  const metered = credits.metered.bind(credits);
  let fromB: B | undefined;
  let jobs = 0;
  credits.metered = (async (...args: Parameters<typeof metered>) => {
    const outcome = await metered(...args);
    clock.advance(minutes * MINUTE);
    if (++jobs === 2) fromB = await meanwhile();
    return outcome;
  }) as typeof credits.metered;
  try {
    return [await work(), fromB];
  } finally {
    credits.metered = metered;
  }
}

describe("watch runs and deliveries slower than a claim's lease, on two replicas", () => {
  it("runs and charges each due watch once", async () => {
    const [a, b] = replicas;
    const { key } = await a.container.accounts.issueKey("slow-watcher", "archive");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(String((await createWatch(a, { q: CHILLIES_Q, interval_minutes: 15, label: `w${i}` }, key)).id));
    }
    const used = async () => (await json<{ credits_used: number }>(await b.get("/account", key))).credits_used;
    const before = await used();

    // Each run on replica a takes 3 minutes (within the lease); after a's second, replica b runs its pass.
    const [fromA, fromB = []] = await slowOnA<RunReport[], RunReport[]>(
      3,
      () => a.container.watchJobs!.runner.runDue(),
      () => b.container.watchJobs!.runner.runDue(),
    );

    // Three runs, 1 credit each (a keyword /stories query): none charged twice.
    expect((await used()) - before).toBe(3);
    // Each watch ran on one replica: a the first two, b the one a had not started.
    expect(fromA.map((r) => r.watch_id)).toEqual([ids[0], ids[1]]);
    expect(fromB.map((r) => r.watch_id)).toEqual([ids[2]]);
    expect([...fromA, ...fromB].every((r) => r.outcome === "complete" && r.recorded === 1)).toBe(true);
  });

  it("POSTs and charges each delivery once", async () => {
    const [a, b] = replicas;
    const { key } = await a.container.accounts.issueKey("slow-receiver", "archive");
    for (let i = 0; i < 3; i++) {
      await createWatch(a, { q: CHILLIES_Q, interval_minutes: 15, label: `d${i}`, webhook_url: receiver.url("localhost") }, key);
    }
    // The watches run (on a, at full speed): one event each, three deliveries due.
    await a.container.watchJobs!.runner.runDue();
    const used = async () => (await json<{ credits_used: number }>(await b.get("/account", key))).credits_used;
    const before = await used();
    const posted = receiver.requests.length;

    // Each delivery from replica a takes 90 s (within the lease); after a's second, replica b delivers what is due.
    await slowOnA(
      1.5,
      () => a.container.watchJobs!.deliverer.deliverDue(),
      () => b.container.watchJobs!.deliverer.deliverDue(),
    );

    const deliveries = receiver.requests.slice(posted).map((r) => String(r.headers["x-service-delivery"]));
    expect(deliveries).toHaveLength(3);
    expect(new Set(deliveries).size).toBe(3);
    // 1 credit per delivery attempt.
    expect((await used()) - before).toBe(3);
  });
});
