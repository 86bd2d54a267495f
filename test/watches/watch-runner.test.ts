import { copyFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WatchRunner } from "../../src/app/watch-runs/watch-runner.js";
import { TestClock } from "../support/test-clock.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";
import { CHILLIES_ID, CHILLIES_Q, createWatch, eventsOf, reportsOf, writeReports } from "./watch-fixtures.js";

// The runner over a real server and index with an injected clock: a story
// reported by more and more outlets between runs, exactly as the spec's
// example grows (3 -> 5 -> 12 -> 15 -> 25 -> 40).

const MINUTE = 60_000;
const T0 = Date.UTC(2023, 6, 2, 16, 0, 0);
const clock = new TestClock(T0);
let server: TestServer;
let runner: WatchRunner;

/** Ingests outlets [from, to) of the story, collected `minutesBefore` the clock's now. */
async function reported(from: number, to: number, minutesBefore = 5): Promise<void> {
  const stamp = new Date(clock.now() - minutesBefore * MINUTE).toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const file = writeReports(reportsOf(CHILLIES_ID, from, to, stamp), `${stamp}-${from}.gkg.csv`);
  await (await server.container.ingestService()).ingest([file]);
}

beforeAll(async () => {
  server = await startTestServer({
    files: [writeReports(reportsOf(CHILLIES_ID, 0, 3, "20230702155500"), "first.gkg.csv")],
    clock,
  });
  runner = server.container.watchJobs!.runner;
});

afterAll(async () => {
  await server?.close();
});

describe("watch runs", () => {
  it("records the spec's growth example exactly, once each, charged to the creating key", async () => {
    const created = await createWatch(server, { q: CHILLIES_Q, interval_minutes: 15, minimum_outlets: 2, label: "chillies" });
    const id = created.id as string;
    expect(created).toMatchObject({ status: "active", next_run_at: "20230702160000", last_run_at: null, watermark: null });
    const account = async () => (await json<{ credits_used: number }>(await server.get("/account"))).credits_used;
    const before = await account();

    // First run, due at once: the story at 3 outlets is new.
    expect(await runner.runDue()).toEqual([{ watch_id: id, outcome: "complete", recorded: 1 }]);
    // Nothing is due again until the interval has passed.
    expect(await runner.runDue()).toEqual([]);
    // The run's /stories query was charged to the creating key's account (1 credit: keyword stories).
    expect((await account()) - before).toBe(1);

    for (const [from, to] of [
      [3, 5],
      [5, 12],
      [12, 15],
      [15, 25],
      [25, 40],
    ] as const) {
      clock.advance(15 * MINUTE);
      await reported(from, to);
      const [report] = await runner.runDue();
      expect(report?.outcome).toBe("complete");
    }

    const { events } = await eventsOf(server, id, "?limit=100");
    const story = events[0]?.story_id;
    expect(events.every((e) => e.story_id === story)).toBe(true);
    // Newest first; in recorded order: new at 3, then 5, 15, 25 and 40 (12 crossed no step and grew by 7).
    expect(
      events.reverse().map((e) => (e.kind === "new_story" ? `new@${e.outlets}` : `${e.previous_outlets}->${e.current_outlets}`)),
    ).toEqual(["new@3", "3->5", "5->15", "15->25", "25->40"]);
    expect(events[0]).not.toHaveProperty("previous_outlets");
    expect(events[0]).toMatchObject({ kind: "new_story", recorded_at: "20230702160000", delivery_status: null });
    // Event ids begin with recorded_at (the time the recording run was due).
    for (const e of events) expect(e.id.startsWith(e.recorded_at as string)).toBe(true);
    expect(events[1]?.id).toBe(`20230702161500-story_growth-${story}-5`);
    // occurred_at: the publication time of the story's newest article when recorded (the reports of 16:10).
    expect(events[1]?.occurred_at).toBe("20230702161000");
    expect(events[0]?.occurred_at).toBe("20230702155500");

    const watch = await json(await server.get(`/watches/${id}`));
    expect(watch).toMatchObject({
      status: "active",
      consecutive_incomplete: 0,
      last_run_at: "20230702171500",
      next_run_at: "20230702173000",
    });
    expect(watch.watermark).toBe("20230702171500");
  });

  it("with story_growth alone, the first sighting records nothing and growth counts from it", async () => {
    const created = await createWatch(server, { q: CHILLIES_Q, interval_minutes: 15, notify_on: ["story_growth"] });
    const id = created.id as string;
    const reports = await runner.runDue();
    expect(reports.find((r) => r.watch_id === id)).toMatchObject({ recorded: 0 });
    clock.advance(15 * MINUTE);
    await reported(40, 50);
    await runner.runDue();
    const { events } = await eventsOf(server, id);
    expect(events.map((e) => [e.kind, e.previous_outlets, e.current_outlets])).toEqual([["story_growth", 40, 50]]);
  });

  it("keeps the watermark through runs that fail, counting them, and catches up on the same window", async () => {
    const created = await createWatch(server, { q: CHILLIES_Q, interval_minutes: 15 });
    const id = created.id as string;
    await runner.runDue();
    const complete = await json(await server.get(`/watches/${id}`));
    // The month's index becomes unreadable (as after a disk fault): the runs that follow get no complete answer.
    const path = join(server.dataDir, "index", "articles-202307.db");
    await server.container.index.close();
    const db = new Database(path);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    copyFileSync(path, `${path}.backup`);
    writeFileSync(path, Buffer.alloc(statSync(path).size, 0x5a));
    for (let i = 0; i < 2; i++) {
      clock.advance(15 * MINUTE);
      expect((await runner.runDue()).find((r) => r.watch_id === id)?.outcome).toBe("incomplete");
    }
    const stalled = await json(await server.get(`/watches/${id}`));
    expect(stalled).toMatchObject({ watermark: complete.watermark, consecutive_incomplete: 2, status: "active" });
    expect(stalled.last_run_at).not.toBe(complete.last_run_at);

    await server.container.index.close();
    for (const suffix of ["-wal", "-shm"]) rmSync(path + suffix, { force: true });
    renameSync(`${path}.backup`, path);
    await reported(60, 62, 40);
    clock.advance(15 * MINUTE);
    expect((await runner.runDue()).find((r) => r.watch_id === id)?.outcome).toBe("complete");
    const caughtUp = await json(await server.get(`/watches/${id}`));
    expect(caughtUp).toMatchObject({ consecutive_incomplete: 0, watermark: caughtUp.last_run_at });
  });

  it("forgets a story unseen for seven days: it is new again when it returns", async () => {
    const created = await createWatch(server, { q: CHILLIES_Q, interval_minutes: 1440 });
    const id = created.id as string;
    await runner.runDue();
    expect((await eventsOf(server, id)).events).toHaveLength(1);
    // Eight days on, the story (unseen since) comes back with new reports.
    for (let day = 0; day < 8; day++) {
      clock.advance(1440 * MINUTE);
      await runner.runDue();
    }
    await reported(50, 52);
    clock.advance(1440 * MINUTE);
    await runner.runDue();
    const kinds = (await eventsOf(server, id)).events.map((e) => e.kind);
    expect(kinds[0]).toBe("new_story");
    // Events are kept seven days: the first one is gone.
    expect(kinds).toEqual(["new_story"]);
  });

  it("claims nothing more once told to stop (a replica shutting down), leaving the rest due for the next pass", async () => {
    clock.advance(1440 * MINUTE);
    await runner.runDue();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createWatch(server, { q: CHILLIES_Q, interval_minutes: 60 })).id as string);
    let asked = 0;
    const first = await runner.runDue(() => asked++ === 0);
    expect(first).toHaveLength(1);
    const rest = await runner.runDue();
    expect(
      [...first, ...rest]
        .filter((r) => ids.includes(r.watch_id))
        .map((r) => r.watch_id)
        .sort(),
    ).toEqual([...ids].sort());
  });
});
