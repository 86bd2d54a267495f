import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { OPERATOR_TOKEN, startConsoleServer } from "../support/console-server.js";
import { TestClock } from "../support/test-clock.js";
import { SAMPLE_FILES } from "../support/test-server.js";

// Makes docs/console-usage.png, the README's picture of the usage page: two
// weeks of calls by a tenant (a test clock moving a day at a time), then the
// operator's view of its usage page in Chromium.
//   node --import tsx test/console/make-usage-screenshot.ts

const OUT = new URL("../../docs/console-usage.png", import.meta.url).pathname;
const clock = new TestClock(Date.UTC(2026, 10, 1, 9));
const server = await startConsoleServer({ files: [SAMPLE_FILES.batch2023], clock });
const profile = mkdtempSync(join(tmpdir(), "newsindex-chromium-"));
try {
  const { key } = await server.api.container.accounts.issueKey("acme", "build");
  const calls = ["/search?q=shooting", "/stories?q=baltimore", "/doc/20230702153000-52", "/account", "/search?language=fra"];
  for (let day = 0; day < 14; day++) {
    for (let i = 0; i < 6 + ((day * 7) % 11); i++) await server.api.get(calls[(day + i) % calls.length] ?? "/account", key);
    clock.advance(86_400_000);
  }
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
    viewport: { width: 1100, height: 980 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${server.url}/sign-in/operator`);
  await page.getByLabel("Operator token").fill(OPERATOR_TOKEN);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { name: "Tenants", level: 1 }).waitFor();
  await page.goto(`${server.url}/usage?tenant=acme`);
  await page.locator("#calls-chart canvas").waitFor();
  await page.screenshot({ path: OUT });
  await context.close();
  console.log(`wrote ${OUT}`);
} finally {
  await server.close();
  rmSync(profile, { recursive: true, force: true });
}
