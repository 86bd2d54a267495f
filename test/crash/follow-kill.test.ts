import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { createContainer, type Container } from "../../src/container.js";
import { freePort, spawnCli, waitUntil, type CliProcess } from "../support/cli-process.js";
import { cutSlots, GdeltMirror, type MirrorSlot } from "../support/gdelt-mirror.js";

// kill -9 of a real `newsindex serve --follow` in the middle of a slot (part of its records written, the ledger
// not yet saying so), then the same command again: every record of every slot is in the index once, and the
// ledger says `ingested` only of slots wholly there.

type Slot = MirrorSlot & { gkg: string[][]; translation: string[][] };

const PER_SLOT = 300;
const BATCH = 25;
const slots: Slot[] = cutSlots("20260210080000", 3, PER_SLOT);
const at = (i: number): Slot => slots[i] as Slot;

let dir: string;
let mirror: GdeltMirror;
let watcher: Container;
const running: CliProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-crash-follow-"));
  mirror = new GdeltMirror();
  await mirror.start();
  watcher = createContainer(loadConfig({}, { dataDir: dir, logLevel: "silent" }));
});

afterAll(async () => {
  for (const cli of running) if (cli.child.exitCode === null) cli.child.kill("SIGKILL");
  await watcher?.close();
  await mirror?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function follow(): Promise<CliProcess> {
  const cli = spawnCli(["serve", "--follow", mirror.base, "--data-dir", dir, "--port", String(await freePort())], {
    NEWSINDEX_FOLLOW_POLL_SECONDS: "1",
    NEWSINDEX_INGEST_BATCH: String(BATCH),
    LOG_LEVEL: "info",
  });
  running.push(cli);
  return cli;
}

async function present(id: string): Promise<boolean> {
  return (await watcher.index.getArticle(id).catch(() => ({ status: "absent" }))).status === "found";
}

/** Every slot the ledger calls ingested has each of its records in the index. */
async function ledgerTruthful(): Promise<void> {
  for (const row of await watcher.feedLedger.list()) {
    if (row.status !== "ingested") continue;
    const slot = slots.find((s) => s.slot === row.slot) as Slot;
    const ids = row.kind === "gkg" ? slot.gkgIds : slot.translationIds;
    for (const id of ids) expect(await present(id), `${id} of a slot the ledger calls ingested`).toBe(true);
  }
}

describe("kill -9 of serve --follow mid-slot", () => {
  it("the restarted follower completes the slot: every record once, the ledger never ahead of the index", async () => {
    await mirror.publish(at(0));
    const first = await follow();
    const describe = (): string => `follower output:\n${first.stdout()}${first.stderr()}`;
    await waitUntil(async () => (await watcher.feedLedger.get(at(0).slot, "translation"))?.status === "ingested", {
      timeoutMs: 240_000,
      everyMs: 100,
      alive: () => first.child.exitCode === null,
      describe,
    });
    // Two more slots at once: the first comes from the master list, and the kill lands inside it.
    await mirror.publish(at(1));
    await mirror.publish(at(2));
    const target = at(1);
    await waitUntil(
      async () => (await present(target.gkgIds[0] as string)) && !(await present(target.gkgIds[PER_SLOT - 1] as string)),
      { timeoutMs: 240_000, everyMs: 5, alive: () => first.child.exitCode === null, describe },
    );
    first.child.kill("SIGKILL");
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });

    const atKill = await watcher.feedLedger.get(target.slot, "gkg");
    expect(atKill).toMatchObject({ status: "pending", attempts: 1 });
    await ledgerTruthful();
    const partly = (await Promise.all(target.gkgIds.map(present))).filter(Boolean).length;
    expect(partly).toBeGreaterThan(0);
    expect(partly).toBeLessThan(PER_SLOT);

    const second = await follow();
    await waitUntil(
      async () => (await watcher.feedLedger.list()).filter((r) => r.status === "ingested").length === slots.length * 2,
      {
        timeoutMs: 240_000,
        everyMs: 200,
        alive: () => second.child.exitCode === null,
        describe: () => `restarted follower output:\n${second.stdout()}${second.stderr()}`,
      },
    );
    second.child.kill("SIGTERM");
    await second.exited;

    await ledgerTruthful();
    const expected = slots.reduce((sum, s) => sum + s.gkgIds.length + s.translationIds.length, 0);
    // Once each: the index holds exactly as many articles as the slots have records.
    expect(await watcher.index.count()).toBe(expected);
    expect(await watcher.feedLedger.get(target.slot, "gkg")).toMatchObject({
      status: "ingested",
      attempts: 2,
      records: PER_SLOT,
      md5_verified: true,
    });
  }, 600_000);
});
