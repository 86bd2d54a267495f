import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLANS } from "../../src/domain/plans.js";
import { SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// 64 clients hammer one tenant at once. Every admitted call reserved its worst
// case atomically, so the durable counter ends equal to the sum of the
// x-credits-charged headers the clients received (0 drift), and nothing was
// admitted past the per-minute bucket.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2016, SAMPLE_FILES.spark] });
});

afterAll(async () => {
  await server.close();
});

describe("64 concurrent clients on one tenant", () => {
  it("end with credits_used equal to the credits charged, and no call admitted beyond the budget", async () => {
    const { key } = await server.container.accounts.issueKey("hammered", "build");
    // No /doc here: the build plan's reach, on the real clock, does not reach the sample's articles (a 400 by id).
    const paths = ["/search?q=police", "/search?offset=2500&limit=5", "/top-headlines?limit=5", "/search?language=fra"];
    const started = Date.now();
    let charged = 0;
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: 64 }, async (_, client) => {
        for (let i = 0; i < 12; i++) {
          const response = await server.get(paths[(client + i) % paths.length] as string, key);
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          charged += Number(response.headers.get("x-credits-charged") ?? "NaN");
        }
      }),
    );
    const elapsedMs = Date.now() - started;

    // The refusals used up this minute's messages, so read the durable counter the way /account does.
    const tenant = await server.container.accounts.tenant("hammered");
    const account = await server.container.credits.account({ tenant, plan: PLANS.build });
    expect(account.credits_used).toBe(charged);
    // Build: 300 credits a minute, refilled at 5 a second.
    expect(charged).toBeLessThanOrEqual(300 + Math.ceil((elapsedMs / 1000) * 5));
    expect(charged).toBeGreaterThanOrEqual(290);
    // Some calls were admitted and some refused as rate limited; nothing else happened.
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(429)).toBeGreaterThan(0);
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
  });
});
