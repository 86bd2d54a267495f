import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import { createContainer, type Container } from "../../src/container.js";
import { freePort, spawnCli, waitUntil, type CliProcess } from "../support/cli-process.js";
import { cutSlots, GdeltMirror, type MirrorSlot } from "../support/gdelt-mirror.js";
import { DATABASE_URL, dropSchemas } from "../support/test-shape.js";

// The scaled shape: two replicas run `serve --follow` on one PostgreSQL control store (and one shared data dir).
// Exactly one follows; killed with -9, it hands the feed over to the other, which carries on from the ledger.

type Slot = MirrorSlot & { gkg: string[][]; translation: string[][] };

const schema = `newsindex_test_${randomBytes(6).toString("hex")}`;
const slots: Slot[] = cutSlots("20260301000000", 2, 200);
const at = (i: number): Slot => slots[i] as Slot;

let dir: string;
let mirror: GdeltMirror;
let watcher: Container;
const replicas: CliProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-follow-replicas-"));
  mirror = new GdeltMirror();
  await mirror.start();
  watcher = createContainer(
    loadConfig(
      {},
      { dataDir: dir, logLevel: "silent", controlStore: "postgres", databaseUrl: DATABASE_URL, databaseSchema: schema },
    ),
  );
});

afterAll(async () => {
  for (const cli of replicas) if (cli.child.exitCode === null) cli.child.kill("SIGKILL");
  await watcher?.close();
  await mirror?.close();
  rmSync(dir, { recursive: true, force: true });
  await dropSchemas([schema]);
});

async function replica(): Promise<CliProcess> {
  const cli = spawnCli(["serve", "--follow", mirror.base, "--data-dir", dir, "--port", String(await freePort())], {
    LOG_LEVEL: "info",
    NEWSINDEX_FOLLOW_POLL_SECONDS: "1",
    NEWSINDEX_CONTROL_STORE: "postgres",
    NEWSINDEX_DATABASE_URL: DATABASE_URL,
    NEWSINDEX_DATABASE_SCHEMA: schema,
  });
  replicas.push(cli);
  return cli;
}

const follows = (cli: CliProcess): boolean => cli.stdout().includes('"msg":"following the feed"');
const standsBy = (cli: CliProcess): boolean => cli.stdout().includes('"msg":"another replica follows the feed"');

async function ingested(i: number): Promise<boolean> {
  const rows = await watcher.feedLedger.list({ from: at(i).slot, to: at(i).slot });
  return rows.length === 2 && rows.every((r) => r.status === "ingested");
}

describe("two replicas on PostgreSQL, serve --follow on both", () => {
  it("one follows; killed, the other takes the feed over", async () => {
    await mirror.publish(at(0));
    const [a, b] = [await replica(), await replica()];
    const output = (): string => replicas.map((r, i) => `replica ${i}:\n${r.stdout()}${r.stderr()}`).join("\n");
    const alive = (): boolean => a.child.exitCode === null && b.child.exitCode === null;
    await waitUntil(async () => (await ingested(0)) && (follows(a) || follows(b)) && (standsBy(a) || standsBy(b)), {
      timeoutMs: 240_000,
      everyMs: 200,
      alive,
      describe: output,
    });
    const [leader, other] = follows(a) ? [a, b] : [b, a];
    expect(follows(other)).toBe(false);
    // Each file fetched once, by the one follower.
    expect(mirror.count(`${at(0).slot}.gkg.csv.zip`)).toBe(1);
    expect(mirror.count(`${at(0).slot}.translation.gkg.csv.zip`)).toBe(1);

    leader.child.kill("SIGKILL");
    await leader.exited;
    await mirror.publish(at(1));
    await waitUntil(async () => (await ingested(1)) && follows(other), {
      timeoutMs: 240_000,
      everyMs: 200,
      alive: () => other.child.exitCode === null,
      describe: output,
    });
    other.child.kill("SIGTERM");
    await other.exited;
    expect(mirror.count(`${at(1).slot}.gkg.csv.zip`)).toBe(1);
    const rows = await watcher.feedLedger.list();
    expect(rows.map((r) => [r.slot, r.kind, r.status, r.attempts, r.records])).toEqual([
      [at(0).slot, "gkg", "ingested", 1, 200],
      [at(0).slot, "translation", "ingested", 1, 67],
      [at(1).slot, "gkg", "ingested", 1, 200],
      [at(1).slot, "translation", "ingested", 1, 67],
    ]);
    expect(await watcher.index.count()).toBe(2 * 267);
  }, 600_000);
});
