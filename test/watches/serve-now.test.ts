import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, runCli, spawnCli, waitUntil, type CliProcess } from "../support/cli-process.js";
import { SAMPLE_FILES } from "../support/test-server.js";

// `newsindex serve --now`: the real process serving the bundled sample as of
// the time it was collected, its scheduler running a watch over it as news
// (the commands that prepare its data dir run in process).

let dir: string;
let served: CliProcess | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-now-"));
});

afterAll(async () => {
  if (served && served.child.exitCode === null) {
    served.child.kill("SIGTERM");
    await served.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("newsindex serve --now", () => {
  it("refuses a time that is not 14 digits", async () => {
    const result = await runCli(["serve", "--data-dir", dir, "--now", "2023-07-02"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--now takes a 14-digit UTC time");
  });

  it("serves as of that instant: plan windows and watch runs use the replayed clock", async () => {
    expect((await runCli(["ingest", "--data-dir", dir, SAMPLE_FILES.batch2023])).status).toBe(0);
    const issued = await runCli(["keys", "create", "--data-dir", dir, "--tenant", "replay", "--plan", "free", "--json"]);
    const key = (JSON.parse(issued.stdout) as { key: string }).key;
    const port = await freePort();
    served = spawnCli(["serve", "--data-dir", dir, "--port", String(port), "--now", "20230702160000"]);
    const base = `http://127.0.0.1:${port}`;
    const get = (path: string) => fetch(base + path, { headers: { "x-api-key": key } });
    await waitUntil(async () => (await get("/account").catch(() => undefined))?.status === 200, {
      timeoutMs: 60_000,
      alive: () => served?.child.exitCode === null,
      describe: () => `serve did not start:\n${served?.stderr()}`,
    });
    // The free plan reaches back 30 days: from 2 July 2023, the sample is within reach.
    const stories = (await (await get("/stories?limit=1")).json()) as { total: number };
    expect(stories.total).toBeGreaterThan(0);
    const response = await fetch(`${base}/watches`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ interval_minutes: 60, minimum_outlets: 1 }),
    });
    const watch = (await response.json()) as { id: string; created_at: string };
    expect(response.status).toBe(201);
    expect(watch.created_at.startsWith("2023070216")).toBe(true);
    // The scheduler runs it within a pass (every 5 s) and records the sample's stories of the hour before as new.
    let events: Array<{ kind: string; recorded_at: string }> = [];
    await waitUntil(
      async () => {
        events = ((await (await get(`/watches/${watch.id}/events?limit=5`)).json()) as { events: typeof events }).events;
        return events.length > 0;
      },
      {
        timeoutMs: 30_000,
        everyMs: 500,
        alive: () => served?.child.exitCode === null,
        describe: () => `no run:\n${served?.stderr()}`,
      },
    );
    expect(events[0]).toMatchObject({ kind: "new_story" });
    expect(events[0]?.recorded_at.startsWith("2023070216")).toBe(true);
  });
});
