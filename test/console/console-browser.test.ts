import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR_TOKEN, startConsoleServer, type ConsoleTestServer } from "../support/console-server.js";
import { json, SAMPLE_FILES } from "../support/test-server.js";

// The console end to end in a real Chromium (Debian's, driven by
// playwright-core; Playwright never downloads a browser here): the operator
// signs in, makes a tenant, a console user and a short-lived key; the key is
// used over HTTP; usage matches /account; the tenant user runs a playground
// search; the key is in no cookie or storage; revoked, it answers 401. No
// request leaves the console's origin and no page logs an error. Screenshots
// of each page go to test/console/screenshots/ (not committed).

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOTS = new URL("./screenshots/", import.meta.url).pathname;

let server: ConsoleTestServer;
let context: BrowserContext;
let page: Page;
let profile: string;
const requests: string[] = [];
const errors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (as .ci/run does)`);
  server = await startConsoleServer({ files: [SAMPLE_FILES.batch2023] });
  profile = mkdtempSync(join(tmpdir(), "newsindex-chromium-"));
  mkdirSync(SCREENSHOTS, { recursive: true });
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1200, height: 900 },
  });
  context.on("request", (request) => requests.push(request.url()));
  page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
});

afterAll(async () => {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** A named figure's value: the cell of the row its name heads. */
async function figure(name: string): Promise<string | null> {
  return page
    .getByRole("row", { name: new RegExp(`^${name}\\b`) })
    .getByRole("cell")
    .textContent();
}

async function account(key: string): Promise<{ credits_used: number; credits_limit: number; credits_per_minute: number }> {
  return json(await fetch(`${server.api.url}/account`, { headers: { "x-api-key": key } }));
}

describe("the console in a real browser", () => {
  it("issues a short-lived key, shows usage equal to /account, runs the playground, and revokes the key", async () => {
    // Operator sign-in.
    await page.goto(server.url);
    await expect.poll(() => page.url()).toBe(`${server.url}/sign-in`);
    await shot("sign-in");
    await page.getByRole("link", { name: "Sign in with the operator token" }).click();
    // By keyboard alone: type the token, Tab to the button, Enter.
    await page.getByLabel("Operator token").focus();
    await page.keyboard.type(OPERATOR_TOKEN);
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.textContent.trim()")).toBe("Sign in");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Tenants", level: 1 }).waitFor();

    // A tenant on the archive plan (the sample is from 2023, beyond the other plans' reach), and a console user for it.
    const newTenant = page.getByRole("form", { name: "New tenant" });
    await newTenant.getByLabel("Name").fill("acme");
    await newTenant.getByLabel("Plan").selectOption("archive");
    await page.getByRole("button", { name: "Create tenant", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Created tenant acme on plan archive" }).waitFor();
    const newUser = page.getByRole("form", { name: "New console user" });
    await newUser.getByLabel("Tenant", { exact: true }).selectOption("acme");
    await newUser.getByLabel("Email").fill("ana@acme.example");
    await page.getByRole("button", { name: "Create user", exact: true }).click();
    const password = await page.getByLabel("One-time password").inputValue();
    expect(password.length).toBeGreaterThanOrEqual(16);
    await shot("tenants");

    // A short-lived key for it, shown once in a read-only field.
    await page.getByRole("link", { name: "Keys", exact: true }).click();
    await page.getByRole("heading", { name: "Keys", level: 1 }).waitFor();
    await page.getByLabel("Tenant", { exact: true }).selectOption("acme");
    await page.getByLabel("Expires in (hours)").fill("2");
    await page.getByRole("button", { name: "Create key", exact: true }).click();
    const newKey = page.getByLabel("New key");
    await newKey.waitFor();
    expect(await newKey.getAttribute("readonly")).not.toBeNull();
    const key = await newKey.inputValue();
    expect(key).toMatch(/^nk_/);
    const prefix = key.slice(0, 11);
    const row = page.getByRole("row").filter({ hasText: prefix });
    await expect.poll(() => row.textContent()).toContain("acme");
    await shot("keys");

    // The key works over HTTP, and the usage page says what /account says.
    const search = await fetch(`${server.api.url}/search?q=shooting&limit=2`, { headers: { "x-api-key": key } });
    expect(search.status).toBe(200);
    expect(search.headers.get("x-credits-charged")).toBe("1");
    await page.getByRole("link", { name: "Usage", exact: true }).click();
    await page.getByLabel("Tenant", { exact: true }).selectOption("acme");
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await page.getByRole("heading", { name: /Tenant acme/ }).waitFor();
    const before = await account(key);
    expect(before.credits_used).toBe(1);
    expect(await figure("Credits used")).toBe(String(before.credits_used));
    expect(await figure("Monthly limit")).toBe("unlimited");
    expect(await figure("Per-minute rate")).toBe(`${before.credits_per_minute.toLocaleString("en-US")} credits a minute`);

    // The tenant user signs in with email and password and runs a playground search, charged like any call.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("heading", { name: "Sign in", level: 1 }).waitFor();
    await page.getByLabel("Email").fill("ana@acme.example");
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();
    await page.getByRole("link", { name: "Playground", exact: true }).click();
    await page.getByLabel("Query").fill("shooting");
    await page.getByLabel("Mode").selectOption("keyword");
    await page.getByLabel("Limit").fill("3");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await page.getByRole("row", { name: /^Credits charged/ }).waitFor();
    expect(await figure("Credits charged")).toBe("1");
    expect(await figure("Coverage")).toBe("complete");
    expect(await figure("Partial")).toBe("no");
    expect(await page.locator("#curl").textContent()).toBe(
      `curl -s -H "x-api-key: $KEY" "${server.api.url}/search?q=shooting&mode=keyword&limit=3"`,
    );
    await shot("playground");
    expect(await page.locator("ol.results li").count()).toBe(3);

    await page.getByRole("link", { name: "Usage", exact: true }).click();
    await page.getByRole("heading", { name: /Tenant acme/ }).waitFor();
    const after = await account(key);
    expect(after.credits_used).toBe(2);
    expect(await figure("Credits used")).toBe("2");
    // The chart is drawn (uPlot's canvas) from the per-day counters.
    await shot("usage");
    await page.locator("#credits-chart canvas").waitFor();

    await page.getByRole("link", { name: "Watches", exact: true }).click();
    await page.getByRole("heading", { name: "Watches", level: 1 }).waitFor();
    await shot("watches");

    // The key is in no cookie and no storage of the console's origin.
    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name)).toEqual(["newsindex_console"]);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    expect(JSON.stringify(cookies)).not.toContain(key);
    // An expression, evaluated in the page (this file is compiled without the DOM's types).
    const stored = String(await page.evaluate("JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie])"));
    expect(stored).not.toContain(key);
    expect(stored).not.toContain("nk_");
    expect(stored).not.toContain(password);

    // Revoked in the console, the key answers 401.
    await page.getByRole("link", { name: "Keys", exact: true }).click();
    const ours = page.getByRole("row").filter({ hasText: prefix });
    await ours.getByRole("button", { name: "Revoke", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Revoked" }).waitFor();
    expect(await page.getByRole("row").filter({ hasText: prefix }).textContent()).toContain("revoked");
    const refused = await fetch(`${server.api.url}/search?q=shooting`, { headers: { "x-api-key": key } });
    expect(refused.status).toBe(401);

    // Every request stayed on the console's origin, and no page logged an error.
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((url) => new URL(url).origin !== server.url)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
