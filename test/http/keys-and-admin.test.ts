import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toStamp } from "../../src/shared/timestamps.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { TestClock } from "../support/test-clock.js";

const TOKEN = "operator-token-for-tests-0123456789";
const clock = new TestClock(Date.UTC(2026, 10, 22, 12, 0, 0));
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2016], clock, adminToken: TOKEN });
});

afterAll(async () => {
  await server.close();
});

async function admin(
  method: string,
  path: string,
  body?: unknown,
  token = TOKEN,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await json(response) };
}

async function status(key: string): Promise<number> {
  return (await server.get("/search?limit=1", key)).status;
}

describe("short-lived keys", () => {
  it("stop working when their TTL runs out", async () => {
    const issued = await server.container.accounts.issueKey("ttl-tenant", "build", { ttlHours: 1 });
    expect(issued.record.expires_at).toBe("20261122130000");
    expect(await status(issued.key)).toBe(200);
    clock.advance(59 * 60_000);
    expect(await status(issued.key)).toBe(200);
    clock.advance(60_000);
    expect(await status(issued.key)).toBe(401);
  });

  it("refuse a TTL over 24 hours", async () => {
    await expect(server.container.accounts.issueKey("ttl-tenant", undefined, { ttlHours: 25 })).rejects.toThrow(
      /at most 24 hours/,
    );
  });
});

describe("rotation", () => {
  it("issues the new key before the old one stops, which keeps working through the grace period", async () => {
    const old = await server.container.accounts.issueKey("rotating", "build");
    const rotated = await server.container.accounts.rotateKey(old.record.key_id, 15);
    expect(await status(rotated.key)).toBe(200);
    expect(await status(old.key)).toBe(200);
    clock.advance(15 * 60_000);
    expect(await status(old.key)).toBe(401);
    expect(await status(rotated.key)).toBe(200);
    // Both keys were one tenant: one counter.
    const account = await json<{ credits_used: number }>(await server.get("/account", rotated.key));
    expect(account.credits_used).toBe(3);
  });

  it("revokes at once with no grace, and refuses to rotate a dead key", async () => {
    const old = await server.container.accounts.issueKey("rotating-now", "build");
    const rotated = await server.container.accounts.rotateKey(old.record.key_id, 0);
    expect(await status(old.key)).toBe(401);
    expect(await status(rotated.key)).toBe(200);
    await expect(server.container.accounts.rotateKey(old.record.key_id, 0)).rejects.toThrow(/No live key/);
  });
});

describe("operator API", () => {
  it("refuses without the operator token, and an API key is not one", async () => {
    expect((await admin("GET", "/tenants", undefined, "wrong-token")).status).toBe(401);
    expect((await admin("GET", "/tenants", undefined, server.key)).status).toBe(401);
    const bare = await fetch(`${server.url}/admin/tenants`);
    expect(bare.status).toBe(401);
    expect((await json(bare)).code).toBe("unauthorized");
  });

  it("creates tenants and keys, suspends, changes plans, rotates and revokes", async () => {
    const created = await admin("POST", "/tenants", { name: "console-co", plan: "free" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "console-co", plan: "free", suspended: false });
    expect((await admin("POST", "/tenants", { name: "console-co", plan: "free" })).body.code).toBe("invalid_parameter");
    expect((await admin("POST", "/tenants", { name: "x", plan: "gold" })).status).toBe(400);

    const key = await admin("POST", "/keys", { tenant: "console-co", ttl_hours: 2 });
    expect(key.status).toBe(201);
    expect(key.body).toMatchObject({ tenant: "console-co", plan: "free", expires_at: toStamp(clock.now() + 2 * 3_600_000) });
    const secret = key.body.key as string;
    expect(await status(secret)).toBe(200);
    expect((await admin("POST", "/keys", { tenant: "console-co", ttl_hours: 48 })).status).toBe(400);

    expect((await admin("PATCH", "/tenants/console-co", { suspended: true })).body.suspended).toBe(true);
    expect(await status(secret)).toBe(402);
    expect((await admin("PATCH", "/tenants/console-co", { suspended: false, plan: "scale" })).body).toMatchObject({
      plan: "scale",
      suspended: false,
    });
    const account = await admin("GET", "/tenants/console-co/account");
    expect(account.body).toMatchObject({ tenant: "console-co", plan: "scale", credits_used: 1, keys: 1, suspended: false });
    expect((await server.get("/search?limit=1", secret)).headers.get("x-credits-per-minute")).toBe("1500");

    const rotated = await admin("POST", `/keys/${key.body.key_id as string}/rotate`, { grace_minutes: 0 });
    expect(rotated.status).toBe(201);
    expect(await status(secret)).toBe(401);
    const newSecret = rotated.body.key as string;
    expect(await status(newSecret)).toBe(200);

    const listed = await admin("GET", "/keys?tenant=console-co");
    expect((listed.body.keys as unknown[]).length).toBe(2);
    expect(JSON.stringify(listed.body)).not.toContain(newSecret);

    expect((await admin("DELETE", `/keys/${rotated.body.key_id as string}`)).body).toEqual({
      revoked: true,
      key_id: rotated.body.key_id,
    });
    expect(await status(newSecret)).toBe(401);
    expect((await admin("DELETE", `/keys/${rotated.body.key_id as string}`)).status).toBe(404);
    expect((await admin("PATCH", "/tenants/nobody", { suspended: true })).status).toBe(404);
  });
});
