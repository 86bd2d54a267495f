import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeApp } from "../../src/http/close-app.js";
import { SESSION_HOURS, SIGN_IN_ATTEMPTS } from "../../src/usecases/console/console-sessions.js";
import { OPERATOR_TOKEN, startConsoleOn, startConsoleServer, type ConsoleTestServer } from "../support/console-server.js";
import { TestClock } from "../support/test-clock.js";
import { json, SAMPLE_FILES } from "../support/test-server.js";

// The console's backend over HTTP, as a browser's requests reach it: sign-in
// refusals, the session cookie's flags, cross-site refusals, expiry and
// sign-out, the operator's pages refused to tenant users, and a tenant user who
// never sees or touches another tenant's keys, usage or watches.

const clock = new TestClock(Date.now());
let server: ConsoleTestServer;
let proxied: { app: FastifyInstance; url: string };
let acme: { key: string; keyId: string; email: string; password: string };
let other: { key: string; keyId: string };

interface Session {
  cookie: string;
  csrf: string;
}

beforeAll(async () => {
  server = await startConsoleServer({ files: [SAMPLE_FILES.batch2023], clock });
  proxied = await startConsoleOn(server.api, true);
  const { accounts, console: consoleServices } = server.api.container;
  const a = await accounts.issueKey("acme", "archive");
  const b = await accounts.issueKey("other", "archive");
  const user = await consoleServices.users.create("acme", "Ana@Acme.example");
  acme = { key: a.key, keyId: a.record.key_id, email: "ana@acme.example", password: user.password };
  other = { key: b.key, keyId: b.record.key_id };
});

afterAll(async () => {
  if (proxied) await closeApp(proxied.app, 1_000);
  await server?.close();
});

function post(path: string, fields: Record<string, string>, session?: Session, headers: Record<string, string> = {}) {
  return fetch(server.url + path, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: server.url,
      ...(session ? { cookie: session.cookie } : {}),
      ...headers,
    },
    body: new URLSearchParams({ ...(session ? { _csrf: session.csrf } : {}), ...fields }).toString(),
  });
}

function get(path: string, session?: Session) {
  return fetch(server.url + path, { redirect: "manual", headers: session ? { cookie: session.cookie } : {} });
}

/** Signs in and reads the session's form token from the first page. */
async function signIn(as: "operator" | "acme"): Promise<Session> {
  const response =
    as === "operator"
      ? await post("/sign-in/operator", { token: OPERATOR_TOKEN })
      : await post("/sign-in", { email: acme.email, password: acme.password });
  expect(response.status).toBe(303);
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const page = await (await get("/keys", { cookie, csrf: "" })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? "";
  expect(csrf).not.toBe("");
  return { cookie, csrf };
}

async function creditsUsed(key: string): Promise<number> {
  return (await json<{ credits_used: number }>(await server.api.get("/account", key))).credits_used;
}

describe("console sign-in", () => {
  it("refuses a wrong operator token, a wrong password and an unknown email alike, with no cookie", async () => {
    const wrongToken = await post("/sign-in/operator", { token: "not-the-token" });
    expect(wrongToken.status).toBe(401);
    expect(wrongToken.headers.get("set-cookie")).toBeNull();
    expect(await wrongToken.text()).toContain("The operator token is not right.");
    const wrongPassword = await post("/sign-in", { email: acme.email, password: "wrong-password" });
    const unknownEmail = await post("/sign-in", { email: "nobody@acme.example", password: acme.password });
    for (const refused of [wrongPassword, unknownEmail]) {
      expect(refused.status).toBe(401);
      expect(refused.headers.get("set-cookie")).toBeNull();
      expect(await refused.text()).toContain("The email or the password is not right.");
    }
  });

  it("signs in with the email in any case, into an httpOnly SameSite=Strict cookie, Secure only behind https", async () => {
    const signed = await post("/sign-in", { email: "ANA@acme.EXAMPLE", password: acme.password });
    expect(signed.status).toBe(303);
    expect(signed.headers.get("location")).toBe("/usage");
    const cookie = signed.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^newsindex_console=[\w-]{40,};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).not.toContain("Secure");
    expect(cookie).toContain(`Max-Age=${SESSION_HOURS * 3600}`);

    const host = new URL(proxied.url).host;
    const behindProxy = await fetch(`${proxied.url}/sign-in/operator`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-proto": "https",
        origin: `https://${host}`,
      },
      body: new URLSearchParams({ token: OPERATOR_TOKEN }).toString(),
    });
    expect(behindProxy.status).toBe(303);
    expect(behindProxy.headers.get("set-cookie")).toContain("Secure");
  });

  it("sends a page without a session to sign-in, and sign-out ends the session", async () => {
    expect((await get("/keys")).headers.get("location")).toBe("/sign-in");
    const session = await signIn("acme");
    expect((await get("/keys", session)).status).toBe(200);
    const out = await post("/sign-out", {}, session);
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("newsindex_console=;");
    const after = await get("/keys", session);
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/sign-in");
  });

  it("expires a session after its hours, and refuses its forms", async () => {
    const session = await signIn("operator");
    clock.advance(SESSION_HOURS * 3_600_000 - 1_000);
    expect((await get("/tenants", session)).status).toBe(200);
    clock.advance(2_000);
    expect((await get("/tenants", session)).headers.get("location")).toBe("/sign-in");
    const form = await post("/tenants", { name: "late", plan: "free" }, session);
    expect(form.status).toBe(401);
    expect(await server.api.container.accounts.listTenants()).not.toContainEqual(expect.objectContaining({ name: "late" }));
  });
});

describe("a tenant user's password", () => {
  it("replaces the one-time password knowing it, and signs in with the new one only", async () => {
    const { password } = await server.api.container.console.users.create("acme", "pat@acme.example");
    const signed = await post("/sign-in", { email: "pat@acme.example", password });
    const cookie = (signed.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const page = await (await get("/password", { cookie, csrf: "" })).text();
    const session = { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? "" };
    const wrong = await post("/password", { current: "not-it", next: "a-new-password-1" }, session);
    expect(wrong.status).toBe(400);
    const short = await post("/password", { current: password, next: "short" }, session);
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("at least 12 characters");
    expect((await post("/password", { current: password, next: "a-new-password-1" }, session)).status).toBe(200);
    expect((await post("/sign-in", { email: "pat@acme.example", password })).status).toBe(401);
    expect((await post("/sign-in", { email: "pat@acme.example", password: "a-new-password-1" })).status).toBe(303);
  });
});

describe("guessing", () => {
  it("makes an account wait after ten failed sign-ins, even with the right password, until the window ends", async () => {
    const { password } = await server.api.container.console.users.create("acme", "guessed@acme.example");
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) {
      expect((await post("/sign-in", { email: "guessed@acme.example", password: `guess-${i}` })).status).toBe(401);
    }
    const waiting = await post("/sign-in", { email: "guessed@acme.example", password });
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(waiting.headers.get("set-cookie")).toBeNull();
    // Another account is not held up.
    expect((await post("/sign-in", { email: acme.email, password: acme.password })).status).toBe(303);
    clock.advance(15 * 60_000);
    expect((await post("/sign-in", { email: "guessed@acme.example", password })).status).toBe(303);
  });
});

describe("cross-site requests", () => {
  it("refuses a form without the session's token, with another's, or from another origin, and changes nothing", async () => {
    const session = await signIn("operator");
    const tenants = async () => (await server.api.container.accounts.listTenants()).map((t) => t.name);
    const noToken = await fetch(`${server.url}/tenants`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: session.cookie, origin: server.url },
      body: "name=forged-1&plan=free",
    });
    expect(noToken.status).toBe(403);
    expect((await post("/tenants", { name: "forged-2", plan: "free", _csrf: "x".repeat(32) }, session)).status).toBe(403);
    const otherSite = await post("/tenants", { name: "forged-3", plan: "free" }, session, { origin: "https://evil.example" });
    expect(otherSite.status).toBe(403);
    // No Origin header but the browser's Sec-Fetch-Site: another site's.
    const crossSite = await fetch(`${server.url}/tenants`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: session.cookie,
        "sec-fetch-site": "cross-site",
      },
      body: new URLSearchParams({ name: "forged-4", plan: "free", _csrf: session.csrf }).toString(),
    });
    expect(crossSite.status).toBe(403);
    expect(await tenants()).not.toEqual(expect.arrayContaining([expect.stringMatching(/^forged/)]));
    // The same form, from the console's own page, is made.
    expect((await post("/tenants", { name: "made", plan: "free" }, session)).status).toBe(201);
    expect(await tenants()).toContain("made");
  });

  it("refuses a sign-in posted from another site (login CSRF)", async () => {
    const forged = await post("/sign-in/operator", { token: OPERATOR_TOKEN }, undefined, { origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    expect(forged.headers.get("set-cookie")).toBeNull();
  });
});

describe("a tenant user", () => {
  it("is refused the operator's pages and forms", async () => {
    const session = await signIn("acme");
    expect((await get("/tenants", session)).status).toBe(403);
    expect((await post("/tenants", { name: "by-a-user", plan: "archive" }, session)).status).toBe(403);
    expect((await post("/tenants/plan", { tenant: "other", plan: "free" }, session)).status).toBe(403);
    expect((await post("/users", { tenant: "other", email: "x@other.example" }, session)).status).toBe(403);
    const names = (await server.api.container.accounts.listTenants()).map((t) => t.name);
    expect(names).not.toContain("by-a-user");
    expect((await server.api.container.accounts.tenant("other")).plan).toBe("archive");
  });

  it("sees only its tenant's keys and usage, and cannot rotate or revoke another's key", async () => {
    const session = await signIn("acme");
    const acmePrefix = acme.key.slice(0, 11);
    const otherPrefix = other.key.slice(0, 11);
    const keys = await (await get("/keys", session)).text();
    expect(keys).toContain(acmePrefix);
    expect(keys).not.toContain(otherPrefix);
    expect(keys).not.toContain(other.keyId);

    // Another tenant asked for by name: still its own figures.
    await server.api.get("/search?q=shooting", other.key);
    const usage = await (await get("/usage?tenant=other", session)).text();
    expect(usage).toContain("Tenant acme,");
    expect(usage).not.toContain("Tenant other");

    const revoke = await post("/keys/revoke", { key_id: other.keyId }, session);
    expect(revoke.status).toBe(404);
    const rotate = await post("/keys/rotate", { key_id: other.keyId, grace_minutes: "0" }, session);
    expect(rotate.status).toBe(404);
    expect((await server.api.get("/account", other.key)).status).toBe(200);
    expect((await server.api.container.accounts.listKeys("other")).map((k) => k.key_id)).toEqual([other.keyId]);
  });

  it("never runs the playground or deletes a watch for another tenant", async () => {
    const session = await signIn("acme");
    const created = await fetch(`${server.api.url}/watches`, {
      method: "POST",
      headers: { "x-api-key": other.key, "content-type": "application/json" },
      body: JSON.stringify({ q: "shooting", interval_minutes: 60 }),
    });
    expect(created.status).toBe(201);
    const watchId = (await json<{ id: string }>(created)).id;
    expect(await (await get("/watches", session)).text()).not.toContain(watchId);
    const deleted = await post("/watches/delete", { watch_id: watchId, tenant: "other" }, session);
    expect(deleted.status).toBe(404);
    expect((await server.api.get(`/watches/${watchId}`, other.key)).status).toBe(200);

    const otherBefore = await creditsUsed(other.key);
    const acmeBefore = await creditsUsed(acme.key);
    const run = await post("/playground", { endpoint: "/search", q: "shooting", tenant: "other" }, session);
    expect(run.status).toBe(200);
    expect(await creditsUsed(other.key)).toBe(otherBefore);
    expect(await creditsUsed(acme.key)).toBe(acmeBefore + 1);
  });
});

describe("keys, usage and the playground", () => {
  it("shows usage equal to /account, with the per-day counters summing to it", async () => {
    const session = await signIn("acme");
    await server.api.get("/search?q=shooting", acme.key);
    await server.api.get("/search?q=baltimore&mode=hybrid", acme.key);
    const account = await json<{ credits_used: number }>(await server.api.get("/account", acme.key));
    const page = await (await get("/usage", session)).text();
    expect(/id="credits-used">\s*([\d,]+)\s*</.exec(page)?.[1]).toBe(account.credits_used.toLocaleString("en-US"));
    const data = /data-usage="([^"]+)"/.exec(page)?.[1] ?? "{}";
    const usage = JSON.parse(data.replaceAll("&quot;", '"')) as { total_credits: number; operations: string[] };
    expect(usage.total_credits).toBe(account.credits_used);
    expect(usage.operations).toEqual(expect.arrayContaining(["GET /account", "GET /search"]));
  });

  it("refuses a key living more than 24 hours, and shows when a key was last used", async () => {
    const session = await signIn("acme");
    const before = (await server.api.container.accounts.listKeys("acme")).length;
    const refused = await post("/keys", { ttl_hours: "25" }, session);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("at most 24 hours");
    expect(await server.api.container.accounts.listKeys("acme")).toHaveLength(before);

    const made = await post("/keys", { ttl_hours: "1" }, session);
    expect(made.status).toBe(201);
    const key = /id="new-key"[^>]*value="(nk_[^"]+)"/.exec(await made.text())?.[1] ?? "";
    expect(key).not.toBe("");
    const row = (page: string) =>
      page.slice(page.indexOf(key.slice(0, 11)), page.indexOf("</tr>", page.indexOf(key.slice(0, 11))));
    expect(row(await (await get("/keys", session)).text())).toContain("never");
    await server.api.get("/account", key);
    expect(row(await (await get("/keys", session)).text())).not.toContain("never");
  });

  it("rotates a key with a grace period: the old key works until it ends, the new one from the start", async () => {
    const session = await signIn("acme");
    const old = (await server.api.container.accounts.issueKey("acme", undefined)).key;
    const oldId = (await server.api.container.accounts.identify(old)).key.key_id;
    const rotated = await post("/keys/rotate", { key_id: oldId, grace_minutes: "5" }, session);
    expect(rotated.status).toBe(201);
    const fresh = /id="new-key"[^>]*value="(nk_[^"]+)"/.exec(await rotated.text())?.[1] ?? "";
    expect((await server.api.get("/account", fresh)).status).toBe(200);
    expect((await server.api.get("/account", old)).status).toBe(200);
    clock.advance(5 * 60_000 + 1_000);
    expect((await server.api.get("/account", old)).status).toBe(401);
    expect((await server.api.get("/account", fresh)).status).toBe(200);
  });

  it("suspends and resumes a tenant and changes its plan, as its keys then answer", async () => {
    const session = await signIn("operator");
    const { key } = await server.api.container.accounts.issueKey("changing", "free");
    expect((await post("/tenants/suspension", { tenant: "changing", suspended: "true" }, session)).status).toBe(200);
    expect((await server.api.get("/search?q=shooting", key)).status).toBe(402);
    expect((await post("/tenants/suspension", { tenant: "changing", suspended: "false" }, session)).status).toBe(200);
    expect((await server.api.get("/account", key)).status).toBe(200);
    expect((await post("/tenants/plan", { tenant: "changing", plan: "scale" }, session)).status).toBe(200);
    expect((await json<{ plan: string }>(await server.api.get("/account", key))).plan).toBe("scale");
    expect((await post("/tenants/plan", { tenant: "changing", plan: "gold" }, session)).status).toBe(400);
  });

  it("lists the tenant's watches with their status, and deletes one", async () => {
    const session = await signIn("acme");
    const created = await fetch(`${server.api.url}/watches`, {
      method: "POST",
      headers: { "x-api-key": acme.key, "content-type": "application/json" },
      body: JSON.stringify({ q: "block party", interval_minutes: 30, label: "parties <b>" }),
    });
    expect(created.status).toBe(201);
    const watchId = (await json<{ id: string }>(created)).id;
    const page = await (await get("/watches", session)).text();
    expect(page).toContain("parties &lt;b&gt;");
    expect(page).toContain("q=block+party");
    expect(page).toContain(watchId);
    const deleted = await post("/watches/delete", { watch_id: watchId }, session);
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).not.toContain(`value="${watchId}"`);
    expect((await server.api.get(`/watches/${watchId}`, acme.key)).status).toBe(404);
  });

  it("shows the API's refusal of a bad parameter in the playground, charged nothing", async () => {
    const session = await signIn("acme");
    const before = await creditsUsed(acme.key);
    const run = await post("/playground", { endpoint: "/search", q: "shooting", language: "en" }, session);
    const page = await run.text();
    expect(page).toContain("invalid_parameter");
    expect(page).toContain("ISO 639-3");
    expect(/id="credits-charged">\s*(\d+)\s*</.exec(page)?.[1]).toBe("0");
    expect(await creditsUsed(acme.key)).toBe(before);
  });

  it("escapes what users typed wherever it is shown", async () => {
    const session = await signIn("operator");
    const name = `<img src=x onerror=alert(1)>`;
    const made = await post("/tenants", { name, plan: "free" }, session);
    const page = await made.text();
    expect(page).not.toContain(name);
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});
