import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PinnedWebhookSender, type Resolver } from "../../src/adapters/webhooks/pinned-webhook-sender.js";
import { PLANS } from "../../src/domain/plans.js";
import { startHttpsReceiver, type HttpsReceiver } from "../support/https-receiver.js";
import { TestClock } from "../support/test-clock.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";
import {
  CHILLIES_ID,
  CHILLIES_Q,
  createWatch,
  eventsOf,
  postWatch,
  reportNow,
  reportsOf,
  storiesNow,
  writeReports,
} from "./watch-fixtures.js";

// Webhook delivery to a real https receiver on loopback (spec 02, Webhook
// delivery): signed POSTs verified the way a customer would, retries after 1,
// 5 and 25 minutes from an outbox that survives a restart, `failed`,
// `failing` and back, `held_credits`, and every refused address class, at
// creation and at delivery. The receiver's host is trusted through the
// testing-only operator setting; every other host goes through the checks.

const MINUTE = 60_000;
const clock = new TestClock(Date.UTC(2023, 6, 2, 16, 0, 0));
let receiver: HttpsReceiver;
let server: TestServer;
let dataDir: string;
const fixture = () => writeReports(reportsOf(CHILLIES_ID, 0, 3, "20230702155500"), "first.gkg.csv");

async function start(files: string[]): Promise<TestServer> {
  return startTestServer({
    files,
    clock,
    dataDir,
    plans: ["free"],
    config: { webhookTestHost: "localhost", webhookTestCaFile: receiver.caFile },
  });
}

beforeAll(async () => {
  receiver = await startHttpsReceiver(["localhost"]);
  dataDir = mkdtempSync(join(tmpdir(), "newsindex-webhooks-"));
  server = await start([fixture()]);
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  receiver.requests.length = 0;
  receiver.answer(204);
});

const jobs = () => server.container.watchJobs!;

async function creditsUsed(key = server.key): Promise<number> {
  return (await json<{ credits_used: number }>(await server.get("/account", key))).credits_used;
}

describe("webhook delivery", () => {
  it("POSTs each event signed with the watch's secret, verified as a customer would", async () => {
    const created = await createWatch(server, { q: CHILLIES_Q, interval_minutes: 60, webhook_url: receiver.url("localhost") });
    const secret = created.webhook_secret as string;
    expect(secret).toMatch(/^whsec_/);
    // The secret is shown once: never again.
    expect(await json(await server.get(`/watches/${String(created.id)}`))).not.toHaveProperty("webhook_secret");
    await jobs().runner.runDue();
    const before = await creditsUsed();
    expect(await jobs().deliverer.deliverDue()).toEqual([expect.objectContaining({ outcome: "delivered" })]);
    // 1 credit per attempt, charged to the creating key.
    expect((await creditsUsed()) - before).toBe(1);

    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    const body = received!.body;
    const expected = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
    expect(received!.headers["x-service-signature"]).toBe(expected);
    expect(received!.headers["content-type"]).toBe("application/json");
    const webhook = JSON.parse(body) as {
      delivery_id: string;
      watch_id: string;
      attempt: number;
      event: Record<string, unknown>;
    };
    expect(received!.headers["x-service-event"]).toBe("new_story");
    expect(received!.headers["x-service-delivery"]).toBe(webhook.delivery_id);
    expect(webhook).toMatchObject({ watch_id: created.id, attempt: 1, event: { kind: "new_story", outlets: 3 } });
    const { events } = await eventsOf(server, String(created.id));
    expect(events[0]).toMatchObject({ id: webhook.event.id, delivery_status: "delivered" });
    // Nothing is sent twice.
    expect(await jobs().deliverer.deliverDue()).toEqual([]);
    await fetch(`${server.url}/watches/${String(created.id)}`, { method: "DELETE", headers: { "x-api-key": server.key } });
  });

  it("retries after 1, 5 and 25 minutes from an outbox that survives a restart, then fails", async () => {
    await reportNow(server, clock.now(), 3);
    const created = await createWatch(server, { q: CHILLIES_Q, interval_minutes: 60, webhook_url: receiver.url("localhost") });
    const id = String(created.id);
    const key = server.key;
    await jobs().runner.runDue();
    receiver.answer(503);
    const attemptsAt: number[] = [];
    const deliver = async () => {
      const done = await jobs().deliverer.deliverDue();
      if (done.length > 0) attemptsAt.push(clock.now());
      return done.map((d) => d.outcome);
    };
    const t0 = clock.now();
    expect(await deliver()).toEqual(["retry"]);

    // A restart: the server goes away and a new one serves the same data dir.
    await server.close();
    server = await start([]);
    clock.advance(MINUTE - 1_000);
    expect(await deliver()).toEqual([]);
    clock.advance(1_000);
    expect(await deliver()).toEqual(["retry"]);
    clock.advance(5 * MINUTE);
    expect(await deliver()).toEqual(["retry"]);
    clock.advance(25 * MINUTE);
    expect(await deliver()).toEqual(["failed"]);
    expect(attemptsAt.map((t) => (t - t0) / MINUTE)).toEqual([0, 1, 6, 31]);
    // Four attempts of one delivery, each numbered, all with the same delivery id.
    expect(receiver.requests.map((r) => (JSON.parse(r.body) as { attempt: number }).attempt)).toEqual([1, 2, 3, 4]);
    expect(new Set(receiver.requests.map((r) => r.headers["x-service-delivery"])).size).toBe(1);
    // The account and its watch outlived the restart: the old key reads them on the new server.
    expect((await eventsOf(server, id, "", key)).events[0]?.delivery_status).toBe("failed");
    expect(await json(await server.get(`/watches/${id}`, key))).toMatchObject({ status: "active", consecutive_failures: 1 });
    await fetch(`${server.url}/watches/${id}`, { method: "DELETE", headers: { "x-api-key": key } });
  });

  it("marks a watch failing after eight failed deliveries in a row, and active again on a success", async () => {
    const { key } = await server.container.accounts.issueKey(`failing-${clock.now()}`, "archive");
    // minimum_outlets 1 over the whole index: every story is an event.
    await storiesNow(server, clock.now(), 12);
    const created = await createWatch(
      server,
      { interval_minutes: 60, minimum_outlets: 1, webhook_url: receiver.url("localhost") },
      key,
    );
    const id = String(created.id);
    await jobs().runner.runDue();
    receiver.answer(500);
    for (const wait of [0, 1, 5, 25]) {
      clock.advance(wait * MINUTE);
      await jobs().deliverer.deliverDue();
    }
    const failing = await json<{ status: string; consecutive_failures: number }>(await server.get(`/watches/${id}`, key));
    expect(failing.status).toBe("failing");
    expect(failing.consecutive_failures).toBeGreaterThanOrEqual(8);
    // The watch still runs and records; a delivery that succeeds brings it back.
    receiver.answer(200);
    clock.advance(60 * MINUTE);
    await reportNow(server, clock.now(), 2, "20230702153000-44");
    await jobs().runner.runDue();
    await jobs().deliverer.deliverDue();
    expect(await json(await server.get(`/watches/${id}`, key))).toMatchObject({ status: "active", consecutive_failures: 0 });
    await fetch(`${server.url}/watches/${id}`, { method: "DELETE", headers: { "x-api-key": key } });
  });

  it("holds deliveries of a hard-capped key that ran out, retried hourly until credits return; runs pause the same way", async () => {
    const free = server.keys.free as string;
    await reportNow(server, clock.now(), 3);
    const created = await createWatch(
      server,
      { q: CHILLIES_Q, interval_minutes: 60, webhook_url: receiver.url("localhost") },
      free,
    );
    const id = String(created.id);
    const owner = (await server.container.accounts.callerForKey((await server.container.accounts.identify(free)).key.key_id))!;
    const hold = await server.container.credits.reserveForJob(
      owner.caller,
      {
        min: 0,
        max: PLANS.free.credits_limit - (await creditsUsed(free)),
        breakdown: [],
      },
      "watch runs",
    );
    expect(hold).toBeDefined();
    // The run does not fit in what is left this month: paused_credits, nothing recorded, nothing charged.
    expect((await jobs().runner.runDue()).find((r) => r.watch_id === id)).toMatchObject({ outcome: "paused_credits" });
    // Credits return (the cap is lifted): rechecked after an hour, the run goes ahead.
    await server.container.credits.settle(hold!, 0);
    const paused = await json<{ status: string; next_run_at: string }>(await server.get(`/watches/${id}`, free));
    expect(paused).toMatchObject({ status: "paused_credits", next_run_at: stampIn(60) });
    clock.advance(60 * MINUTE);
    await reportNow(server, clock.now(), 3);
    expect((await jobs().runner.runDue()).find((r) => r.watch_id === id)).toMatchObject({ outcome: "complete", recorded: 1 });
    expect(await json(await server.get(`/watches/${id}`, free))).toMatchObject({ status: "active" });

    // Out of credits again before the delivery: it is held.
    const again = await server.container.credits.reserveForJob(
      owner.caller,
      {
        min: 0,
        max: PLANS.free.credits_limit - (await creditsUsed(free)),
        breakdown: [],
      },
      "watch runs",
    );
    expect(await jobs().deliverer.deliverDue()).toEqual([expect.objectContaining({ outcome: "held_credits" })]);
    expect(receiver.requests).toHaveLength(0);
    clock.advance(59 * MINUTE);
    expect(await jobs().deliverer.deliverDue()).toEqual([]);
    await server.container.credits.settle(again!, 0);
    expect((await eventsOf(server, id, "", free)).events[0]?.delivery_status).toBe("held_credits");
    clock.advance(MINUTE);
    expect(await jobs().deliverer.deliverDue()).toEqual([expect.objectContaining({ outcome: "delivered" })]);
    expect((await eventsOf(server, id, "", free)).events[0]?.delivery_status).toBe("delivered");
    await fetch(`${server.url}/watches/${id}`, { method: "DELETE", headers: { "x-api-key": free } });
  });

  it("fails a held delivery when its event reaches the seven-day retention", async () => {
    const { key, tenant } = await server.container.accounts.issueKey(`held-${clock.now()}`, "free");
    await reportNow(server, clock.now(), 3);
    const created = await createWatch(
      server,
      { q: CHILLIES_Q, interval_minutes: 1440, webhook_url: receiver.url("localhost") },
      key,
    );
    await jobs().runner.runDue();
    const owner = (await server.container.accounts.callerForKey((await server.container.accounts.identify(key)).key.key_id))!;
    const used = (await server.container.credits.account({ tenant, plan: PLANS.free })).credits_used;
    const hold = await server.container.credits.reserveForJob(
      owner.caller,
      {
        min: 0,
        max: PLANS.free.credits_limit - used,
        breakdown: [],
      },
      "watch runs",
    );
    expect(await jobs().deliverer.deliverDue()).toEqual([expect.objectContaining({ outcome: "held_credits" })]);
    clock.advance(7 * 24 * 60 * MINUTE);
    expect(await jobs().deliverer.deliverDue()).toEqual([expect.objectContaining({ outcome: "failed" })]);
    expect(receiver.requests).toHaveLength(0);
    await server.container.credits.settle(hold!, 0);
    expect(await json(await server.get(`/watches/${String(created.id)}`, key))).toMatchObject({ consecutive_failures: 1 });
    await fetch(`${server.url}/watches/${String(created.id)}`, { method: "DELETE", headers: { "x-api-key": key } });
  });

  it("pauses a watch whose key is suspended, charging nothing, and resumes it when the key is valid again", async () => {
    const issued = await server.container.accounts.issueKey(`suspended-${clock.now()}`, "build");
    const created = await createWatch(server, { q: CHILLIES_Q, interval_minutes: 15 }, issued.key);
    const id = String(created.id);
    await server.container.accounts.setSuspended(issued.tenant.name, true);
    const before = (await server.container.credits.account({ tenant: issued.tenant, plan: PLANS.build })).credits_used;
    expect((await jobs().runner.runDue()).find((r) => r.watch_id === id)).toMatchObject({ outcome: "paused_key" });
    expect((await server.container.credits.account({ tenant: issued.tenant, plan: PLANS.build })).credits_used).toBe(before);
    await server.container.accounts.setSuspended(issued.tenant.name, false);
    expect(await json(await server.get(`/watches/${id}`, issued.key))).toMatchObject({ status: "paused_key" });
    clock.advance(15 * MINUTE);
    await reportNow(server, clock.now(), 3);
    expect((await jobs().runner.runDue()).find((r) => r.watch_id === id)).toMatchObject({ outcome: "complete", recorded: 1 });
    expect(await json(await server.get(`/watches/${id}`, issued.key))).toMatchObject({ status: "active" });
  });
});

describe("a watch whose key is revoked", () => {
  it("pauses and stays paused, charging nothing: a watch does not move keys", async () => {
    const issued = await server.container.accounts.issueKey(`revoked-${clock.now()}`, "build");
    const created = await createWatch(server, { q: CHILLIES_Q, interval_minutes: 15 }, issued.key);
    const id = String(created.id);
    await server.container.accounts.revokeKey(issued.record.key_id);
    const other = (await server.container.accounts.issueKey(issued.tenant.name, undefined)).key;
    for (let i = 0; i < 2; i++) {
      expect((await jobs().runner.runDue()).find((r) => r.watch_id === id)).toMatchObject({ outcome: "paused_key" });
      clock.advance(15 * MINUTE);
    }
    // The account's other key sees it paused, with nothing run.
    expect(await json(await server.get(`/watches/${id}`, other))).toMatchObject({ status: "paused_key", last_run_at: null });
  });
});

describe("webhook deliveries of a key that is no longer usable", () => {
  /** A watch with a webhook whose first run recorded one event, its delivery not yet attempted. */
  async function recordedUndelivered(): Promise<{ id: string; key: string; tenant: string; keyId: string }> {
    const issued = await server.container.accounts.issueKey(`hooked-${clock.now()}`, "build");
    await reportNow(server, clock.now(), 3);
    const created = await createWatch(
      server,
      { q: CHILLIES_Q, interval_minutes: 15, webhook_url: receiver.url("localhost") },
      issued.key,
    );
    const id = String(created.id);
    expect((await jobs().runner.runDue()).find((r) => r.watch_id === id)).toMatchObject({ recorded: 1 });
    return { id, key: issued.key, tenant: issued.tenant.name, keyId: issued.record.key_id };
  }
  const sentFor = (id: string) => receiver.requests.filter((r) => (JSON.parse(r.body) as { watch_id: string }).watch_id === id);
  const outcomes = (done: Array<{ outcome: string }>) => done.map((d) => d.outcome);

  it("of a suspended tenant are not attempted nor charged; the watch is paused_key, and they go out once it resumes", async () => {
    const watch = await recordedUndelivered();
    await server.container.accounts.setSuspended(watch.tenant, true);
    const tenant = await server.container.accounts.tenant(watch.tenant);
    const used = async () => (await server.container.credits.account({ tenant, plan: PLANS.build })).credits_used;
    const before = await used();
    expect(outcomes(await jobs().deliverer.deliverDue())).toContain("paused_key");
    expect(sentFor(watch.id)).toHaveLength(0);
    expect(await used()).toBe(before);
    await server.container.accounts.setSuspended(watch.tenant, false);
    expect(await json(await server.get(`/watches/${watch.id}`, watch.key))).toMatchObject({ status: "paused_key" });
    // Still pending, not failed: retried hourly, delivered once the key is usable, charged then.
    expect((await eventsOf(server, watch.id, "", watch.key)).events[0]?.delivery_status).toBe("pending");
    // Reading the watch and its events cost 1 credit each.
    const resumed = await used();
    expect(resumed).toBe(before + 2);
    clock.advance(60 * MINUTE);
    expect(outcomes(await jobs().deliverer.deliverDue())).toContain("delivered");
    expect(sentFor(watch.id)).toHaveLength(1);
    expect(await used()).toBe(resumed + 1);
  });

  it("of a revoked key are not attempted nor charged, and the watch is paused_key", async () => {
    const watch = await recordedUndelivered();
    await server.container.accounts.revokeKey(watch.keyId);
    const other = (await server.container.accounts.issueKey(watch.tenant, undefined)).key;
    const before = await creditsUsed(other);
    for (let i = 0; i < 2; i++) {
      expect(outcomes(await jobs().deliverer.deliverDue())).toContain("paused_key");
      clock.advance(60 * MINUTE);
    }
    expect(sentFor(watch.id)).toHaveLength(0);
    expect(await creditsUsed(other)).toBe(before);
    expect(await json(await server.get(`/watches/${watch.id}`, other))).toMatchObject({ status: "paused_key" });
  });
});

describe("webhook addresses", () => {
  it.each([
    ["http://hooks.example.com/in", "https"],
    ["https://user:pw@hooks.example.com/in", "credentials"],
    ["https://127.0.0.1/in", "loopback"],
    ["https://[::1]/in", "loopback"],
    ["https://10.0.0.8/in", "private"],
    ["https://192.168.1.20/in", "private"],
    ["https://[fd12::1]/in", "private"],
    ["https://169.254.169.254/latest/meta-data", "link-local"],
    ["https://[fe80::1]/in", "link-local"],
    ["https://100.64.0.1/in", "carrier-grade NAT"],
    ["https://192.0.2.10/in", "documentation"],
    ["https://203.0.113.5/in", "documentation"],
    ["https://[2001:db8::5]/in", "documentation"],
    ["https://[::ffff:127.0.0.1]/in", "an IPv4-mapped address carrying 127.0.0.1 (a loopback address)"],
    ["https://[::ffff:8.8.8.8]/in", "an IPv4-mapped address carrying 8.8.8.8"],
    ["https://0x7f000001/in", "loopback"],
    // Every form that carries an IPv4 address inside IPv6 (the URL parser rewrites `::127.0.0.1` as `::7f00:1`).
    ["https://[::127.0.0.1]/in", "an IPv4-compatible address carrying 127.0.0.1 (a loopback address)"],
    ["https://[::10.0.0.1]/in", "an IPv4-compatible address carrying 10.0.0.1 (a private address)"],
    ["https://[::ffff:0:169.254.169.254]/in", "an IPv4-translated address carrying 169.254.169.254 (a link-local address)"],
    ["https://[64:ff9b::127.0.0.1]/in", "a NAT64 (IPv4-embedded) address carrying 127.0.0.1 (a loopback address)"],
    ["https://[2002:7f00:1::1]/in", "a 6to4 address carrying 127.0.0.1 (a loopback address)"],
    ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/in", "a Teredo address carrying 127.0.0.1 (a loopback address)"],
  ])("refuses %s at creation (%s)", async (url, reason) => {
    const response = await postWatch(server, { q: "x", interval_minutes: 60, webhook_url: url });
    const body = await json<{ code: string; detail: string; parameter: string }>(response);
    expect(response.status).toBe(400);
    expect(body).toMatchObject({ code: "invalid_parameter", parameter: "webhook_url" });
    expect(body.detail).toContain(reason);
    expect(response.headers.get("x-credits-charged")).toBe("0");
  });
});

describe("webhook addresses resolved by name", () => {
  // Names resolved by a resolver of the test's own (the machine has no DNS of
  // its own for them): what an attacker's DNS could answer.
  const answers = new Map<string, string[]>();
  const resolver: Resolver = async (host) => {
    const found = answers.get(host);
    if (found === undefined) throw new Error("ENOTFOUND");
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  let named: TestServer;
  let namedDir: string;

  beforeAll(async () => {
    namedDir = mkdtempSync(join(tmpdir(), "newsindex-named-"));
    named = await startTestServer({
      files: [fixture()],
      clock,
      dataDir: namedDir,
      config: { webhookTestHost: "receiver.newsindex.test", webhookTestCaFile: (await receiverFor()).caFile },
      container: { webhookSender: new PinnedWebhookSender({ resolver, testTrust: undefined }) },
    });
  });

  afterAll(async () => {
    await named?.close();
    await pinnedReceiver?.close();
    rmSync(namedDir, { recursive: true, force: true });
  });

  let pinnedReceiver: HttpsReceiver | undefined;
  async function receiverFor(): Promise<HttpsReceiver> {
    pinnedReceiver ??= await startHttpsReceiver(["receiver.newsindex.test"]);
    return pinnedReceiver;
  }

  it("refuses a host name that resolves to a private address, at creation", async () => {
    answers.set("intranet.example.com", ["93.184.216.34", "10.1.2.3"]);
    answers.set("localhost.example.com", ["127.0.0.1"]);
    answers.set("compatible.example.com", ["93.184.216.34", "::7f00:1"]);
    for (const host of ["intranet.example.com", "localhost.example.com", "compatible.example.com", "nowhere.example.com"]) {
      const response = await postWatch(named, { q: "x", interval_minutes: 60, webhook_url: `https://${host}/in` });
      expect(response.status, host).toBe(400);
      expect((await json<{ detail: string }>(response)).detail).toMatch(/resolves to|does not resolve/);
    }
    // Without the testing setting, loopback is refused by its real name too.
    const real = await postWatch(server, { q: "x", interval_minutes: 60, webhook_url: "https://localhost.localdomain/in" });
    expect(real.status).toBe(400);
  });

  it.each(["10.0.0.5", "127.0.0.1", "169.254.169.254", "100.64.0.9", "198.51.100.1", "::ffff:10.0.0.5", "fd00::5", "::7f00:1"])(
    "refuses at delivery a host that now resolves to %s, without connecting or charging",
    async (address) => {
      const host = `rebind-${address.replaceAll(/[.:]/g, "-")}.example.com`;
      answers.set(host, ["93.184.216.34"]);
      const created = await createWatch(named, { q: CHILLIES_Q, interval_minutes: 60, webhook_url: `https://${host}/in` });
      // The attacker's DNS now answers an address inside the network.
      answers.set(host, [address]);
      await reportNow(named, clock.now(), 3);
      await named.container.watchJobs!.runner.runDue();
      const before = (await json<{ credits_used: number }>(await named.get("/account"))).credits_used;
      const done = await named.container.watchJobs!.deliverer.deliverDue();
      expect(done).toEqual([expect.objectContaining({ outcome: "retry" })]);
      expect((await json<{ credits_used: number }>(await named.get("/account"))).credits_used).toBe(before);
      expect((await eventsOf(named, String(created.id))).events[0]?.delivery_status).toBe("pending");
      await fetch(`${named.url}/watches/${String(created.id)}`, { method: "DELETE", headers: { "x-api-key": named.key } });
    },
  );

  it("connects to the checked address only: a name no real DNS knows is delivered through the pinned lookup", async () => {
    const target = await receiverFor();
    answers.set("receiver.newsindex.test", ["127.0.0.1"]);
    const sender = new PinnedWebhookSender({
      resolver,
      testTrust: { host: "receiver.newsindex.test", caPem: readPem(target.caFile) },
    });
    const url = new URL(target.url("receiver.newsindex.test"));
    const resolved = await sender.resolve(url);
    expect(resolved).toEqual({ ok: true, target: { address: "127.0.0.1", family: 4 } });
    if (!resolved.ok) return;
    const posted = await sender.post(url, resolved.target, "{}", { "x-service-event": "new_story" });
    expect(posted).toEqual({ ok: true, status: 204 });
    expect(target.requests).toHaveLength(1);
    // Without the test CA, the receiver's certificate is not trusted.
    const strict = new PinnedWebhookSender({ resolver });
    expect((await strict.post(url, resolved.target, "{}", {})).ok).toBe(false);
  });
});

function stampIn(minutes: number): string {
  return new Date(clock.now() + minutes * MINUTE).toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

function readPem(path: string): string {
  return readFileSync(path, "utf8");
}
