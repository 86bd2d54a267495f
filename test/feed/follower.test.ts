import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlotKind } from "../../src/domain/feed-slots.js";
import type { FeedFollower } from "../../src/usecases/feed/feed-follower.js";
import { parseStamp } from "../../src/shared/timestamps.js";
import { runCli } from "../support/cli-process.js";
import { cutSlots, GdeltMirror, zipRows, type MirrorSlot } from "../support/gdelt-mirror.js";
import { TestClock } from "../support/test-clock.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// The live follower against a mirror of GDELT's feed on loopback, slot by slot: what reaches the index (read back
// over HTTP) and what the ledger says.

type Slot = MirrorSlot & { gkg: string[][]; translation: string[][] };

const FIRST = "20260105120000";
const slots: Slot[] = cutSlots(FIRST, 8, 60);
const at = (i: number): Slot => slots[i] as Slot;
const zip = (i: number): string => `${at(i).slot}.gkg.csv.zip`;

let mirror: GdeltMirror;
let server: TestServer;
let follower: FeedFollower;
/** The service's clock: a few minutes after the newest published slot. */
const clock = new TestClock((parseStamp(FIRST) as number) + 4 * 60_000);

beforeAll(async () => {
  mirror = new GdeltMirror();
  await mirror.start();
  server = await startTestServer({
    files: [],
    clock,
    config: { followPollSeconds: 1, followAttempts: 2, followMissingAfterSeconds: 30 },
  });
  follower = server.container.feedFollower(mirror.base, ["gkg", "translation"]);
});

afterAll(async () => {
  await server?.close();
  await mirror?.close();
});

/** Publishes slot `i` and moves the clock to a few minutes past it, as GDELT's files appear. */
async function publish(i: number): Promise<void> {
  await mirror.publish(at(i));
  clock.set(Math.max(clock.now(), (parseStamp(at(i).slot) as number) + 4 * 60_000));
}

async function docStatus(id: string): Promise<number> {
  const response = await server.get(`/doc/${encodeURIComponent(id)}`);
  await response.arrayBuffer();
  return response.status;
}

async function row(i: number, kind: SlotKind = "gkg") {
  return server.container.feedLedger.get(at(i).slot, kind);
}

describe("following GDELT's feed", () => {
  it("ingests a new slot's GKG and translingual files once, readable over HTTP", async () => {
    await publish(0);
    const outcomes = await follower.poll();
    expect(outcomes.map((o) => [o.slot, o.kind, o.status, o.records])).toEqual([
      [at(0).slot, "gkg", "ingested", 60],
      [at(0).slot, "translation", "ingested", 20],
    ]);
    expect(await row(0)).toMatchObject({ status: "ingested", md5_verified: true, attempts: 1, records: 60, last_error: null });
    expect(await docStatus(at(0).gkgIds[0] as string)).toBe(200);
    expect(await docStatus(at(0).translationIds[19] as string)).toBe(200);
    expect(await server.container.index.count()).toBe(80);
    // The next rounds find nothing new: no second download, nothing written twice.
    await follower.poll();
    await follower.poll();
    expect(mirror.count(zip(0))).toBe(1);
    expect(await server.container.index.count()).toBe(80);
  });

  it("refuses a file whose md5 does not match its listing, and ingests it once corrected", async () => {
    await publish(1);
    const good = await zipRows(`${at(1).slot}.gkg.csv`, at(1).gkg);
    const flipped = Buffer.from(good);
    const middle = Math.floor(flipped.length / 2);
    flipped[middle] = (flipped[middle] ?? 0) ^ 0xff;
    mirror.serveBytes(zip(1), flipped);
    await follower.poll();
    const refused = await row(1);
    expect(refused).toMatchObject({ status: "pending", md5_verified: false, attempts: 1, records: null });
    expect(refused?.last_error).toMatch(/^md5 mismatch: listed [0-9a-f]{32}, received [0-9a-f]{32}$/);
    // Not one record of the refused file is in the index.
    expect(await docStatus(at(1).gkgIds[0] as string)).toBe(404);
    // Held back until its retry time.
    await follower.poll();
    expect(mirror.count(zip(1))).toBe(1);

    mirror.serveBytes(zip(1), good);
    clock.advance(1_000);
    await follower.poll();
    expect(await row(1)).toMatchObject({ status: "ingested", md5_verified: true, attempts: 2, records: 60, last_error: null });
    expect(await docStatus(at(1).gkgIds[59] as string)).toBe(200);
  });

  it("marks a slot failed after its attempts, with the reason, and `follow --since --until` re-tries it", async () => {
    await publish(2);
    const good = await zipRows(`${at(2).slot}.gkg.csv`, at(2).gkg);
    mirror.serveBytes(zip(2), good.subarray(0, good.length - 10));
    await follower.poll();
    clock.advance(1_000);
    await follower.poll();
    const failed = await row(2);
    expect(failed).toMatchObject({ status: "failed", attempts: 2, md5_verified: false });
    expect(failed?.last_error).toBe(`size mismatch: listed ${good.length} bytes, received ${good.length - 10}`);
    clock.advance(60_000);
    await follower.poll();
    expect(mirror.count(zip(2))).toBe(2);
    expect(await docStatus(at(2).gkgIds[0] as string)).toBe(404);

    mirror.serveBytes(zip(2), good);
    const outcomes = await follower.catchUp(at(2).slot, at(2).slot);
    expect(outcomes.map((o) => [o.kind, o.status])).toEqual([["gkg", "ingested"]]);
    expect(await row(2)).toMatchObject({ status: "ingested", attempts: 1, md5_verified: true, records: 60 });
    expect(await docStatus(at(2).gkgIds[0] as string)).toBe(200);
  });

  it("keeps trying a listed file that answers 404 until it appears; past the limit it is missing", async () => {
    await publish(3);
    mirror.withheld.add(zip(3));
    await follower.poll();
    expect(await row(3)).toMatchObject({ status: "pending", attempts: 1 });
    expect((await row(3))?.last_error).toBe(`HTTP 404 at ${mirror.base}${zip(3)}`);
    expect(await row(3, "translation")).toMatchObject({ status: "ingested" });
    mirror.withheld.delete(zip(3));
    clock.advance(1_000);
    await follower.poll();
    expect(await row(3)).toMatchObject({ status: "ingested", attempts: 2, records: 60 });

    await publish(4);
    mirror.withheld.add(zip(4));
    await follower.poll();
    for (let wait = 1_000; wait < 64_000; wait *= 2) {
      clock.advance(wait);
      await follower.poll();
    }
    const missing = await row(4);
    expect(missing?.status).toBe("missing");
    expect(missing?.last_error).toContain(`HTTP 404 at ${mirror.base}${zip(4)}, listed since`);
    mirror.withheld.delete(zip(4));
    await follower.catchUp(at(4).slot, at(4).slot);
    expect(await row(4)).toMatchObject({ status: "ingested", records: 60 });
  });

  it("recovers the slots lastupdate jumped past from the master list, oldest first; one no list names is missing", async () => {
    await publish(5);
    await publish(6);
    await publish(7);
    mirror.unlisted.add(at(6).slot);
    mirror.log.length = 0;
    await follower.poll();
    expect(await row(5)).toMatchObject({ status: "ingested", records: 60 });
    expect(await row(5, "translation")).toMatchObject({ status: "ingested", records: 20 });
    expect(await row(7)).toMatchObject({ status: "ingested", records: 60 });
    expect(await row(6)).toMatchObject({ status: "missing", attempts: 0, last_error: "not in the master list" });
    expect(mirror.count(zip(6))).toBe(0);
    const fetched = mirror.log.filter((p) => p.endsWith(".zip")).map((p) => p.slice(p.lastIndexOf("/") + 1));
    expect(fetched).toEqual([zip(5), `${at(5).slot}.translation.gkg.csv.zip`, zip(7), `${at(7).slot}.translation.gkg.csv.zip`]);
    expect(mirror.log).toContain("/gdeltv2/masterfilelist.txt");
    expect(await docStatus(at(5).gkgIds[0] as string)).toBe(200);
    expect(await docStatus(at(6).gkgIds[0] as string)).toBe(404);
  });

  it("tells users of the hole: /docs/completeness.md lists it, and an answer whose window holds it is not complete", async () => {
    const doc = await (await fetch(`${server.url}/docs/completeness.md`)).text();
    expect(doc).toContain("## Live feed: missing and failed slots");
    expect(doc).toContain(`| ${at(6).slot} | gkg | missing | not in the master list |`);
    expect(doc).toContain(`| ${at(6).slot} | translation | missing | not in the master list |`);
    expect(doc).toContain(`Newest slot in the index: ${at(7).slot}.`);

    const search = async (from: string, to?: string): Promise<{ partial: boolean; coverage: string; total: number }> => {
      const response = await server.get(`/search?from=${from}${to === undefined ? "" : `&to=${to}`}&limit=1`);
      expect(response.status).toBe(200);
      return (await response.json()) as { partial: boolean; coverage: string; total: number };
    };
    const stamp = (i: number, minutes: number): string =>
      new Date((parseStamp(at(i).slot) as number) + minutes * 60_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
    expect(await search(stamp(0, -10), stamp(0, 5))).toMatchObject({ partial: false, coverage: "complete" });
    expect(await search(stamp(6, -5), stamp(6, 5))).toMatchObject({ partial: true, coverage: "range_too_wide" });
    // An hour without a new slot: the newest data is overdue.
    clock.advance(3_600_000);
    expect(await search(stamp(7, -5))).toMatchObject({ partial: true, coverage: "recent_unavailable" });
    expect(await search(stamp(0, -10), stamp(0, 5))).toMatchObject({ partial: false, coverage: "complete" });
  });

  it("prints the ledger as JSON with `newsindex feed --json`, after `newsindex follow --since --until` re-tried the hole", async () => {
    // Up to the end of the year: slots after the master list's newest are not published yet, not holes.
    const follow = await runCli([
      "follow",
      mirror.base,
      "--since",
      at(0).slot,
      "--until",
      "2026-12-31",
      "--data-dir",
      server.dataDir,
    ]);
    expect(follow.status, follow.stderr).toBe(1);
    expect(follow.stdout).toContain("followed 2 slots: 0 ingested (0 records), 0 pending, 0 failed, 2 missing");
    expect(follow.stderr).toContain(`${at(6).slot} gkg: missing (not in the master list)`);
    const cli = await runCli(["feed", "--json", "--data-dir", server.dataDir]);
    expect(cli.status).toBe(0);
    const report = JSON.parse(cli.stdout) as {
      slots: Array<Record<string, unknown>>;
      summary: { ingested: number; pending: number; failed: unknown[]; missing: Array<Record<string, unknown>> };
    };
    expect(report.slots).toHaveLength(16);
    expect(report.slots[0]).toEqual({
      slot: at(0).slot,
      kind: "gkg",
      status: "ingested",
      md5_verified: true,
      records: 60,
      attempts: 1,
      last_error: null,
    });
    expect(report.summary).toEqual({
      ingested: 14,
      pending: 0,
      failed: [],
      missing: [
        { slot: at(6).slot, kind: "gkg", last_error: "not in the master list" },
        { slot: at(6).slot, kind: "translation", last_error: "not in the master list" },
      ],
    });
    const total = slots.filter((_, i) => i !== 6).length * 80;
    expect(await server.container.index.count()).toBe(total);
  });
});
