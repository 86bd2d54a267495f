import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { controlSql } from "../support/control-sql.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { TestClock } from "../support/test-clock.js";

// Budgets over HTTP, on a clock the test moves. The free plan: 30 credits a
// minute, 1,000 a month hard-capped, 60 messages a minute.

interface Body {
  code?: string;
  [field: string]: unknown;
}

/** 2026-11-30 23:00 UTC: an hour before the month turns. */
const NEAR_MONTH_END = Date.UTC(2026, 10, 30, 23, 0, 0);

let server: TestServer;
const clock = new TestClock(NEAR_MONTH_END);

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2016, SAMPLE_FILES.spark], clock });
});

afterAll(async () => {
  await server.close();
});

async function freshKey(name: string, plan: "free" | "build" | "archive" = "free"): Promise<string> {
  return (await server.container.accounts.issueKey(name, plan)).key;
}

async function call(path: string, key: string): Promise<{ status: number; body: Body; headers: Headers }> {
  const response = await server.get(path, key);
  return { status: response.status, body: await json<Body>(response), headers: response.headers };
}

describe("estimate and max_credits", () => {
  it("previews the price without running or charging, and the charge stays inside it", async () => {
    // The archive plan reaches the 2016 article (a free key is refused it, uncharged: test/http/plan-reach.test.ts).
    const key = await freshKey("estimator", "archive");
    for (const [path, expected] of [
      ["/search?q=police", { min: 1, max: 1 }],
      ["/search?offset=2500", { min: 3, max: 3 }],
      ["/doc/20160101020000-1", { min: 1, max: 1 }],
    ] as const) {
      const sep = path.includes("?") ? "&" : "?";
      const preview = await call(`${path}${sep}estimate=true`, key);
      expect(preview.status).toBe(200);
      expect(preview.headers.get("x-credits-charged")).toBe("0");
      expect(preview.body).toMatchObject({ estimate: true, credits: expected, would_run: true, credits_charged: 0 });
      expect((preview.body.breakdown as unknown[]).length).toBeGreaterThan(0);
      const used = Number(preview.headers.get("x-credits-used"));

      const real = await call(path, key);
      const charged = Number(real.headers.get("x-credits-charged"));
      expect(charged).toBeGreaterThanOrEqual(expected.min);
      expect(charged).toBeLessThanOrEqual(expected.max);
      expect(Number(real.headers.get("x-credits-used"))).toBe(used + charged);
    }
  });

  it("says a call would not run when this minute's credits are short", async () => {
    const key = await freshKey("estimator-short");
    const preview = await call("/search?offset=40000&estimate=true", key);
    expect(preview.body).toMatchObject({ credits: { min: 41, max: 41 }, would_run: true });
    await call("/search?q=x", key);
    const after = await call("/search?offset=40000&estimate=true", key);
    expect(after.body).toMatchObject({ would_run: false, refusal: "credit_rate_limited" });
  });

  it("refuses at no cost when the worst case exceeds max_credits", async () => {
    const key = await freshKey("budgeted");
    const refused = await call("/search?offset=5000&max_credits=3", key);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "credit_budget_exceeded", credits: { min: 6, max: 6 }, max_credits: 3 });
    expect(refused.headers.get("x-credits-charged")).toBe("0");
    expect(refused.headers.get("x-credits-used")).toBe("0");
    const allowed = await call("/search?offset=5000&max_credits=6", key);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("x-credits-charged")).toBe("6");
  });
});

describe("per-minute credits", () => {
  it("refuses past this minute's credits with 429, retry-after and the spec's fields, then refills", async () => {
    const key = await freshKey("minute");
    for (let i = 0; i < 30; i++) expect((await call("/search?q=x", key)).status).toBe(200);
    const refused = await call("/search?q=x", key);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: "credit_rate_limited",
      credits: { min: 1, max: 1 },
      credits_needed: 1,
      credits_per_minute: 30,
      credits_per_minute_remaining: 0,
      retry_after_secs: 2,
    });
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(refused.headers.get("x-credits-charged")).toBe("0");
    expect(refused.headers.get("x-credits-used")).toBe("30");
    clock.advance(2_000);
    expect((await call("/search?q=x", key)).status).toBe(200);
  });

  it("lets a call larger than a minute's credits wait for a full bucket instead of refusing it for ever", async () => {
    const key = await freshKey("big-call");
    await call("/search?q=x", key);
    const waiting = await call("/search?offset=99000", key);
    expect(waiting.status).toBe(429);
    expect(waiting.body).toMatchObject({ code: "credit_rate_limited", credits_needed: 30 });
    expect(waiting.headers.get("retry-after")).toBe("2");
    clock.advance(2_000);
    const ran = await call("/search?offset=99000", key);
    expect(ran.status).toBe(200);
    expect(ran.headers.get("x-credits-charged")).toBe("100");
    // The bucket is now 70 in debt: a small call waits until the refill pays it back.
    const next = await call("/search?q=x", key);
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("retry-after"))).toBe(142);
  });
});

describe("monthly credits on a hard-capped key", () => {
  it("refuses a call whose worst case does not fit, until the month renews", async () => {
    clock.set(NEAR_MONTH_END);
    const key = await freshKey("monthly");
    for (let i = 0; i < 10; i++) {
      clock.advance(200_000);
      expect((await call("/search?offset=99000", key)).status).toBe(200);
    }
    clock.advance(200_000);
    const refused = await call("/search?q=x", key);
    expect(refused.status).toBe(429);
    const renews = Math.ceil((Date.UTC(2026, 11, 1) - clock.now()) / 1000);
    expect(refused.body).toMatchObject({
      code: "insufficient_credits",
      credits: { min: 1, max: 1 },
      credits_limit: 1000,
      credits_used: 1000,
      credits_remaining: 0,
      retry_after_secs: renews,
    });
    expect(refused.headers.get("retry-after")).toBe(String(renews));
    expect(refused.headers.get("x-credits-remaining")).toBe("0");

    // Order of checks: a wrong key is still 401, bad parameters still 400.
    expect((await call("/search?q=x", "nk_wrong")).status).toBe(401);
    expect((await call("/search?limit=0", key)).body.code).toBe("invalid_parameter");

    clock.set(Date.UTC(2026, 11, 1, 0, 0, 1));
    const renewed = await call("/search?q=x", key);
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get("x-credits-used")).toBe("1");
  });
});

describe("message rate", () => {
  it("limits free calls and refused requests per minute with message_rate_limited", async () => {
    const key = await freshKey("messages");
    for (let i = 0; i < 50; i++) expect((await call("/account", key)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await call("/search?limit=0", key)).status).toBe(400);
    const limited = await call("/account", key);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: "message_rate_limited", messages_per_minute: 60, retry_after_secs: 1 });
    expect(limited.headers.get("retry-after")).toBe("1");
    // A refused request past the rate answers message_rate_limited too; a priced call still runs.
    expect((await call("/search?limit=0", key)).body.code).toBe("message_rate_limited");
    expect((await call("/search?q=x", key)).status).toBe(200);
    clock.advance(1_000);
    expect((await call("/account", key)).status).toBe(200);
  });
});

describe("GET /account", () => {
  it("reports every Account field at no cost", async () => {
    clock.set(Date.UTC(2026, 10, 22, 12, 0, 0));
    const key = await freshKey("account-holder");
    await call("/search?offset=1000", key);
    const { status, body, headers } = await call("/account", key);
    expect(status).toBe(200);
    expect(body).toEqual({
      tenant: "account-holder",
      plan: "free",
      credits_per_minute: 30,
      credits_limit: 1000,
      credits_used: 2,
      credits_remaining: 998,
      credits_reset_secs: (Date.UTC(2026, 11, 1) - clock.now()) / 1000,
      period_start: Date.UTC(2026, 10, 1) / 1000,
      hard_cap: true,
      metered_billing: false,
      history_days: 30,
      credits_charged: 0,
      attribution: expect.stringContaining("GDELT"),
    });
    expect(headers.get("x-credits-charged")).toBe("0");
    expect(headers.get("x-credits-used")).toBe("2");

    const build = await call("/account", await freshKey("builder", "build"));
    expect(build.body).toMatchObject({ plan: "build", hard_cap: false, metered_billing: true, credits_limit: 50000 });
    const archive = await call("/account", server.key);
    expect(archive.body).toMatchObject({ credits_limit: 0, credits_remaining: null, history_days: null, metered_billing: false });
  });

  it("refuses without a key (401), for a suspended tenant (402), and previews at 0", async () => {
    expect((await call("/account", "nk_wrong")).status).toBe(401);
    const key = await freshKey("to-suspend");
    await server.container.accounts.setSuspended("to-suspend", true);
    const suspended = await call("/account", key);
    expect(suspended.status).toBe(402);
    expect(suspended.body.code).toBe("suspended");
    // Suspension is checked before parameters.
    expect((await call("/search?limit=0", key)).status).toBe(402);
    await server.container.accounts.setSuspended("to-suspend", false);
    expect((await call("/account?estimate=true", key)).body).toMatchObject({ estimate: true, credits: { min: 0, max: 0 } });
  });
});

describe("durability", () => {
  it("keeps every charge across a restart of the control store", async () => {
    const key = await freshKey("durable", "build");
    for (let i = 0; i < 5; i++) await call("/search?q=x", key);
    const before = (await call("/account", key)).body.credits_used;
    expect(before).toBe(5);
    // Read the database a fresh process would open.
    const [row] = await controlSql<{ credits_used: number | string }>(
      server,
      "SELECT credits_used FROM credit_months m JOIN tenants t ON t.id = m.tenant_id WHERE t.name = 'durable'",
    );
    expect(Number(row?.credits_used)).toBe(5);
  });
});
