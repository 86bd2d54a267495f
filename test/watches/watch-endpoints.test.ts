import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClock } from "../support/test-clock.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { createWatch, eventsOf, postWatch } from "./watch-fixtures.js";

// The five watch endpoints over HTTP (spec 02, section 4): every rule of
// POST /watches, accounts kept apart, prices, and the plan's cap.

const clock = new TestClock(Date.UTC(2023, 6, 2, 16, 0, 0));
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023], plans: ["free", "build"], clock });
});

afterAll(async () => {
  await server?.close();
});

interface ErrorBody {
  code: string;
  detail: string;
  [extra: string]: unknown;
}

async function refused(body: unknown, key = server.key): Promise<ErrorBody & { status: number; charged: string | null }> {
  const response = await postWatch(server, body, key);
  return { ...(await json<ErrorBody>(response)), status: response.status, charged: response.headers.get("x-credits-charged") };
}

describe("POST /watches", () => {
  it("creates a watch (201) due at once, returning its webhook secret only here", async () => {
    const response = await postWatch(server, {
      label: "Baltimore",
      q: "shooting",
      language: "eng",
      name: "baltimore",
      interval_minutes: 30,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-credits-charged")).toBe("1");
    const watch = await json(response);
    expect(watch).toMatchObject({
      label: "Baltimore",
      // `name` is the proper-name filter, saved in the query with the others as query-string values.
      query: { q: "shooting", language: "eng", name: "baltimore" },
      interval_minutes: 30,
      minimum_outlets: 2,
      notify_on: ["new_story", "story_growth"],
      webhook_url: null,
      webhook_secret: null,
      status: "active",
      created_at: "20230702160000",
      next_run_at: "20230702160000",
      last_run_at: null,
      watermark: null,
      consecutive_failures: 0,
      consecutive_incomplete: 0,
      credits_charged: 1,
    });
    expect(watch.id).toMatch(/^wt_/);
    expect(typeof watch.attribution).toBe("string");
  });

  it.each([
    ["from", "2023-07-01"],
    ["to", "2023-07-02"],
    ["offset", 0],
    ["limit", 10],
    ["sort", "recency"],
    ["signal_percentile_min", 90],
  ])("refuses '%s', which is not part of a watch, as unknown_parameter, uncharged", async (field, value) => {
    const error = await refused({ q: "shooting", interval_minutes: 60, [field]: value });
    expect(error).toMatchObject({ status: 400, code: "unknown_parameter", parameter: field, charged: "0" });
    expect(error.detail).toContain(`'${field}'`);
  });

  it("takes signals as the packed string or as an array of {name, min, max}, with the /stories rules", async () => {
    const packed = await createWatch(server, { q: "strike", interval_minutes: 60, signals: "labor:0.5:" });
    expect(packed.query).toMatchObject({ signals: "labor:0.5:" });
    const clauses = await createWatch(server, {
      q: "strike",
      interval_minutes: 60,
      signals: [{ name: "labor", min: 0.5 }, { name: "conflict" }],
    });
    expect(clauses.query).toMatchObject({ signals: "labor:0.5:,conflict::" });
    const unknown = await refused({ q: "strike", interval_minutes: 60, signals: [{ name: "labour" }] });
    expect(unknown).toMatchObject({ status: 400, code: "unknown_signal", charged: "0" });
    const signal = await refused({ q: "strike", interval_minutes: 60, signal: "labour" });
    expect(signal).toMatchObject({ status: 400, code: "unknown_signal", charged: "0" });
    const malformed = await refused({ q: "strike", interval_minutes: 60, signals: [{ name: "labor", min: "high" }] });
    expect(malformed).toMatchObject({ status: 400, code: "invalid_parameter", charged: "0" });
  });

  it("names the closest field for an unknown one", async () => {
    const error = await refused({ q: "shooting", interval_minutes: 60, lang: "eng" });
    expect(error).toMatchObject({ code: "unknown_parameter", suggestion: "language" });
  });

  it.each([
    [{ q: "x", interval_minutes: 60, language: "en" }, "language"],
    [{ q: "x", interval_minutes: 60, minimum_outlets: 0 }, "minimum_outlets"],
    [{ q: "x", interval_minutes: 60, minimum_outlets: 101 }, "minimum_outlets"],
    [{ q: "x", interval_minutes: 60, minimum_outlets: "2" }, "minimum_outlets"],
    [{ q: "x", interval_minutes: 60, notify_on: ["new_story", "new_story"] }, "notify_on"],
    [{ q: "x", interval_minutes: 60, notify_on: ["breaking"] }, "notify_on"],
    [{ q: "x", interval_minutes: 60, notify_on: [] }, "notify_on"],
    [{ q: "x", interval_minutes: 1441 }, "interval_minutes"],
    [{ q: "x", interval_minutes: 30.5 }, "interval_minutes"],
    [{ q: "x" }, "interval_minutes"],
    [{ q: "-only", interval_minutes: 60 }, "q"],
    [{ q: "x", interval_minutes: 60, mode: "psychic" }, "mode"],
  ])("refuses an out-of-range or malformed value as invalid_parameter: %j", async (body, parameter) => {
    const error = await refused(body);
    expect(error).toMatchObject({ status: 400, code: "invalid_parameter", parameter, charged: "0" });
  });

  it("names the plan's floor when the interval is below it", async () => {
    const free = await refused({ q: "x", interval_minutes: 30 }, server.keys.free);
    expect(free).toMatchObject({ code: "invalid_parameter", parameter: "interval_minutes", plan_floor_minutes: 60 });
    expect(free.detail).toContain("floor is 60 minutes");
    const build = await refused({ q: "x", interval_minutes: 5 }, server.keys.build);
    expect(build.detail).toContain("floor is 15 minutes");
    expect((await refused({ q: "x", interval_minutes: 2000 }, server.keys.build)).detail).toContain("1440");
    expect((await postWatch(server, { q: "x", interval_minutes: 15 }, server.keys.build)).status).toBe(201);
  });

  it("refuses a body that is not a JSON object", async () => {
    const response = await fetch(`${server.url}/watches`, {
      method: "POST",
      headers: { "x-api-key": server.key, "content-type": "application/json" },
      body: "[1, 2]",
    });
    expect(response.status).toBe(400);
    expect((await json<ErrorBody>(response)).code).toBe("invalid_parameter");
  });

  it("refuses beyond the plan's cap with watch_limit giving the allowed and current counts, uncharged", async () => {
    const free = server.keys.free as string;
    await createWatch(server, { q: "shooting", interval_minutes: 60 }, free);
    await createWatch(server, { q: "police", interval_minutes: 60 }, free);
    const error = await refused({ q: "fire", interval_minutes: 60 }, free);
    expect(error).toMatchObject({ status: 400, code: "watch_limit", watch_limit: 2, watch_count: 2, charged: "0" });
    expect(error.detail).toContain("allows 2 watches");
    const list = await json<{ count: number; limit: number }>(await server.get("/watches", free));
    expect(list).toMatchObject({ count: 2, limit: 2 });
  });

  it("previews with estimate=true: the run's price, runs per month and delivery attempts, creating nothing", async () => {
    const before = await json<{ count: number }>(await server.get("/watches"));
    const response = await postWatch(server, { q: "shooting", interval_minutes: 60 }, server.key, "?estimate=true");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-credits-charged")).toBe("0");
    const preview = await json(response);
    expect(preview).toMatchObject({
      estimate: true,
      operation: "createWatch",
      credits: { min: 1, max: 1 },
      per_run: { min: 1, max: 1 },
      runs_per_month: 720,
      webhook_attempts_per_event_max: 0,
      credits_charged: 0,
    });
    expect((await json<{ count: number }>(await server.get("/watches"))).count).toBe(before.count);
  });
});

describe("GET, DELETE and events", () => {
  it("lists the account's watches oldest first without secrets, whichever key created them", async () => {
    const { key } = await server.container.accounts.issueKey("lister", "scale");
    const first = await createWatch(server, { q: "one", interval_minutes: 5 }, key);
    const second = await createWatch(server, { q: "two", interval_minutes: 5, label: "second" }, key);
    const sameAccount = (await server.container.accounts.issueKey("lister", undefined)).key;
    const response = await server.get("/watches", sameAccount);
    expect(response.headers.get("x-credits-charged")).toBe("1");
    const list = await json<{ watches: Array<Record<string, unknown>>; count: number; limit: number }>(response);
    expect(list.watches.map((w) => w.id)).toEqual([first.id, second.id]);
    expect(list).toMatchObject({ count: 2, limit: 200, credits_charged: 1 });
    for (const w of list.watches) expect(w).not.toHaveProperty("webhook_secret");
    const one = await json(await server.get(`/watches/${String(first.id)}`, sameAccount));
    expect(one).toMatchObject({ id: first.id, query: { q: "one" }, credits_charged: 1 });
    expect(one).not.toHaveProperty("webhook_secret");
  });

  it("answers another account's watch as 404, the same as a missing one, on every id endpoint", async () => {
    const mine = await createWatch(server, { q: "mine", interval_minutes: 60 });
    const other = server.keys.build as string;
    for (const path of [`/watches/${String(mine.id)}`, `/watches/${String(mine.id)}/events`, "/watches/wt_missing"]) {
      const response = await server.get(path, other);
      expect(response.status, path).toBe(404);
      expect((await json<ErrorBody>(response)).code).toBe("not_found");
    }
    const deleted = await fetch(`${server.url}/watches/${String(mine.id)}`, {
      method: "DELETE",
      headers: { "x-api-key": other },
    });
    expect(deleted.status).toBe(404);
    expect((await server.get(`/watches/${String(mine.id)}`)).status).toBe(200);
  });

  it("deletes a watch: {deleted: true, id}, then it is gone", async () => {
    const watch = await createWatch(server, { q: "gone", interval_minutes: 60 });
    const response = await fetch(`${server.url}/watches/${String(watch.id)}`, {
      method: "DELETE",
      headers: { "x-api-key": server.key },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-credits-charged")).toBe("1");
    expect(await json(response)).toMatchObject({ deleted: true, id: watch.id, credits_charged: 1 });
    expect((await server.get(`/watches/${String(watch.id)}`)).status).toBe(404);
    const again = await fetch(`${server.url}/watches/${String(watch.id)}`, {
      method: "DELETE",
      headers: { "x-api-key": server.key },
    });
    expect(again.status).toBe(404);
  });

  it("pages events newest first with after/next_after, limit 1 to 100", async () => {
    const { key } = await server.container.accounts.issueKey("pager", "archive");
    const watch = await createWatch(server, { interval_minutes: 60, minimum_outlets: 1 }, key);
    await server.container.watchJobs!.runner.runDue();
    const all = await eventsOf(server, String(watch.id), "?limit=100", key);
    expect(all.events.length).toBeGreaterThan(3);
    expect(all.next_after).toBeNull();
    const ids = all.events.map((e) => e.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    const page1 = await eventsOf(server, String(watch.id), "?limit=2", key);
    expect(page1.events.map((e) => e.id)).toEqual(ids.slice(0, 2));
    const page2 = await eventsOf(server, String(watch.id), `?limit=2&after=${page1.next_after}`, key);
    expect(page2.events.map((e) => e.id)).toEqual(ids.slice(2, 4));
    const defaults = await eventsOf(server, String(watch.id), "", key);
    expect(defaults.events).toHaveLength(Math.min(20, ids.length));
    // An `after` that is no event id is refused, not read as "older than something": it used to answer the whole feed.
    for (const after of ["nope", "zzz", encodeURIComponent(`${ids[0] ?? ""} x`)]) {
      const response = await server.get(`/watches/${String(watch.id)}/events?after=${after}`, key);
      expect(response.status, after).toBe(400);
      expect(await json<ErrorBody>(response)).toMatchObject({ code: "invalid_parameter", parameter: "after" });
      expect(response.headers.get("x-credits-charged")).toBe("0");
    }
    for (const limit of ["0", "101", "x"]) {
      const response = await server.get(`/watches/${String(watch.id)}/events?limit=${limit}`, key);
      expect(response.status).toBe(400);
      expect((await json<ErrorBody>(response)).code).toBe("invalid_parameter");
    }
  });
});

describe("the OpenAPI document", () => {
  it("publishes the five watch operations and the WatchWebhook body", async () => {
    const doc = await json<{
      paths: Record<string, Record<string, { operationId: string; requestBody?: unknown }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
      webhooks: Record<string, { post: { requestBody: unknown; parameters: Array<{ name: string }> } }>;
    }>(await server.get("/openapi.json", null));
    expect(Object.keys(doc.paths["/watches"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/watches/{id}"] ?? {}).sort()).toEqual(["delete", "get"]);
    expect(doc.paths["/watches/{id}/events"]?.get?.operationId).toBe("watchEvents");
    const body = JSON.stringify(doc.paths["/watches"]?.post?.requestBody);
    expect(body).toContain("interval_minutes");
    expect(body).not.toContain('"from"');
    expect(Object.keys(doc.components.schemas.WatchWebhook?.properties ?? {})).toEqual([
      "delivery_id",
      "watch_id",
      "label",
      "attempt",
      "event",
    ]);
    expect(doc.webhooks.watchEvent?.post.parameters.map((p) => p.name)).toEqual([
      "x-service-event",
      "x-service-delivery",
      "x-service-signature",
    ]);
  });
});
