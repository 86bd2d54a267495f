import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLANS } from "../../src/domain/plans.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { DATABASE_URL, dropSchemas } from "../support/test-shape.js";

// The scaled shape's accounting: two API replicas share one PostgreSQL control
// store. Clients hammer one tenant through both; the counter ends equal to
// what they were charged, nothing is admitted past the budget, and both
// replicas report the same figure.

const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
let replicas: TestServer[] = [];

beforeAll(async () => {
  const config = { controlStore: "postgres" as const, databaseUrl: DATABASE_URL, databaseSchema: schema };
  replicas = [
    await startTestServer({ files: [SAMPLE_FILES.batch2016], config }),
    await startTestServer({ files: [SAMPLE_FILES.batch2016], config }),
  ];
});

afterAll(async () => {
  for (const replica of replicas) await replica.close();
  await dropSchemas([schema]);
});

describe("two replicas on one PostgreSQL control store", () => {
  it("share keys, budgets and counters exactly", async () => {
    const [a, b] = replicas as [TestServer, TestServer];
    const { key } = await a.container.accounts.issueKey("replicated", "build");
    const started = Date.now();
    // A key issued through one replica works on the other.
    expect((await b.get("/search?limit=1", key)).status).toBe(200);

    let charged = 1;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 64 }, async (_, client) => {
        const replica = client % 2 === 0 ? a : b;
        for (let i = 0; i < 6; i++) {
          const response = await replica.get(i % 2 === 0 ? "/search?q=police" : "/search?offset=2500&limit=1", key);
          await response.arrayBuffer();
          statuses.push(response.status);
          charged += Number(response.headers.get("x-credits-charged"));
        }
      }),
    );
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
    const figures = await Promise.all(
      [a, b].map(async (replica) => {
        const tenant = await replica.container.accounts.tenant("replicated");
        return (await replica.container.credits.account({ tenant, plan: PLANS.build })).credits_used;
      }),
    );
    expect(figures).toEqual([charged, charged]);
    // Nothing past the per-minute budget: the full bucket, plus what it refilled while the clients ran.
    const refilled = ((Date.now() - started) / 60_000) * PLANS.build.credits_per_minute;
    expect(charged).toBeLessThanOrEqual(PLANS.build.credits_per_minute + Math.ceil(refilled));

    const viaHttp = await json<{ credits_used: number }>(
      await a.get("/account", (await a.container.accounts.issueKey("replicated", undefined)).key),
    );
    expect(viaHttp.credits_used).toBe(charged);
  });
});
