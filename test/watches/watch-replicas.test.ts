import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpsReceiver, type HttpsReceiver } from "../support/https-receiver.js";
import { TestClock } from "../support/test-clock.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";
import { CHILLIES_ID, CHILLIES_Q, createWatch, eventsOf, reportsOf, writeReports } from "./watch-fixtures.js";

// The scaled shape: two API replicas share one PostgreSQL control store and
// both run the watch scheduler. Running their passes at the same moment, each
// due watch runs once, each event is recorded once and each delivery is
// POSTed once.

const URL = process.env.NEWSINDEX_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
const clock = new TestClock(Date.UTC(2023, 6, 2, 16, 0, 0));
let replicas: [TestServer, TestServer];
let receiver: HttpsReceiver;

beforeAll(async () => {
  receiver = await startHttpsReceiver(["localhost"]);
  const config = {
    controlStore: "postgres" as const,
    databaseUrl: URL,
    databaseSchema: schema,
    webhookTestHost: "localhost",
    webhookTestCaFile: receiver.caFile,
  };
  const files = () => [writeReports(reportsOf(CHILLIES_ID, 0, 3, "20230702155500"), "first.gkg.csv")];
  replicas = [await startTestServer({ files: files(), clock, config }), await startTestServer({ files: files(), clock, config })];
});

afterAll(async () => {
  for (const replica of replicas ?? []) await replica.close();
  await receiver?.close();
  const admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
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
