// Freshness of the live follower: how long after a slot appears in lastupdate.txt its articles are
// keyword-searchable, and semantically searchable (embedded), through a real `newsindex serve --follow` reading a
// loopback mirror of GDELT's feed that publishes consecutive slots cut from the real 2023 batch (951 records a
// slot, ids and V2.1DATE moved, every other column as published) one after another.
//
//   flock /tmp/newsindex-bench.lock node --import tsx bench/feed-freshness-bench.ts [--slots N] [--poll S] [--gap S]
//
// Keyword-searchable: the slot's last record answers /doc/{id} (its keyword postings are written in the same
// transaction). Semantically
// searchable: a semantic /search over the whole index answers `coverage: complete` (every article embedded).
// Appends its figures to bench/RESULTS.md.

import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort, spawnCli, waitUntil } from "../test/support/cli-process.js";
import { cutSlots, GdeltMirror } from "../test/support/gdelt-mirror.js";
import { loadAverage, machine } from "./scale/measure.js";

const { values } = parseArgs({
  options: {
    slots: { type: "string", default: "4" },
    poll: { type: "string", default: "10" },
    gap: { type: "string", default: "90" },
  },
});
const SLOTS = Number(values.slots);
const POLL_S = Number(values.poll);
const GAP_S = Number(values.gap);
const PER_SLOT = 951;

const dir = mkdtempSync(join(tmpdir(), "newsindex-freshness-"));
const mirror = new GdeltMirror();
await mirror.start();
const loadBefore = loadAverage();
const slots = cutSlots("20260401000000", SLOTS + 1, PER_SLOT);

const keys = spawnCli(["keys", "create", "--tenant", "bench", "--plan", "archive", "--json", "--data-dir", dir]);
await keys.exited;
const key = (JSON.parse(keys.stdout()) as { key: string }).key;

// The first slot is published before the server starts: a fresh data dir begins at the newest slot.
await mirror.publish(slots[0] as (typeof slots)[number]);
const port = await freePort();
const server = spawnCli(["serve", "--follow", mirror.base, "--data-dir", dir, "--port", String(port)], {
  NEWSINDEX_FOLLOW_POLL_SECONDS: String(POLL_S),
  NEWSINDEX_EMBED_IN_SERVER: "on",
  LOG_LEVEL: "warn",
});
const api = `http://127.0.0.1:${port}`;
const get = async (path: string): Promise<{ status: number; body: Record<string, unknown> }> => {
  const response = await fetch(api + path, { headers: { "x-api-key": key } });
  const text = await response.text();
  return {
    status: response.status,
    body: response.headers.get("content-type")?.includes("json") ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
};

async function keywordReady(id: string): Promise<boolean> {
  const doc = await get(`/doc/${encodeURIComponent(id)}`).catch(() => ({ status: 0, body: {} }));
  return doc.status === 200;
}

async function semanticReady(): Promise<boolean> {
  const found = await get("/search?q=news&mode=semantic&limit=1").catch(() => ({
    status: 0,
    body: {} as Record<string, unknown>,
  }));
  return found.status === 200 && found.body.coverage === "complete";
}

const alive = (): boolean => server.child.exitCode === null;
const describeServer = (): string => `server output:\n${server.stdout()}${server.stderr()}`;
await waitUntil(() => semanticReady(), { timeoutMs: 600_000, everyMs: 500, alive, describe: describeServer });

const rows: Array<{ slot: string; keyword: number; semantic: number }> = [];
for (const slot of slots.slice(1)) {
  const last = slot.gkgIds[slot.gkgIds.length - 1] as string;
  await mirror.publish(slot);
  const published = Date.now();
  await waitUntil(() => keywordReady(last), { timeoutMs: 600_000, everyMs: 200, alive, describe: describeServer });
  const keyword = (Date.now() - published) / 1000;
  await waitUntil(() => semanticReady(), { timeoutMs: 600_000, everyMs: 500, alive, describe: describeServer });
  const semantic = (Date.now() - published) / 1000;
  rows.push({ slot: slot.slot, keyword, semantic });
  console.log(`${slot.slot}: keyword-searchable after ${keyword.toFixed(1)} s, semantic after ${semantic.toFixed(1)} s`);
  const rest = GAP_S * 1000 - (Date.now() - published);
  if (rest > 0) await new Promise((r) => setTimeout(r, rest));
}
server.child.kill("SIGTERM");
await server.exited;
await mirror.close();
rmSync(dir, { recursive: true, force: true });

const max = (xs: number[]): number => Math.max(...xs);
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const kw = rows.map((r) => r.keyword);
const sem = rows.map((r) => r.semantic);
const report = `
<!-- feed freshness: written by bench/feed-freshness-bench.ts -->
# Live feed freshness

Machine: ${machine()}. Load average before / after (1, 5, 15 min): ${loadBefore} → ${loadAverage()} (the machine was shared with other work while it ran).
Command: \`flock /tmp/newsindex-bench.lock node --import tsx bench/feed-freshness-bench.ts --slots ${SLOTS} --poll ${POLL_S} --gap ${GAP_S}\`.

A real \`newsindex serve --follow\` (embedding in the server on) reads a loopback mirror of GDELT's feed; the mirror publishes ${SLOTS} consecutive slots of ${PER_SLOT} real GKG records each (plus a translingual file of ${Math.ceil(PER_SLOT / 3)}), one every ${GAP_S} s. Timed from the moment a slot is in lastupdate.txt: keyword-searchable when its last record answers \`/doc/{id}\` (its keyword postings are written in the same transaction); semantically searchable when a semantic \`/search\` over the whole index answers \`coverage: complete\`. The poll interval was ${POLL_S} s; a slot waits up to one interval before it is seen, so with the default of 60 s add up to 60 s − ${POLL_S} s to each figure.

| slot | keyword-searchable (s) | semantic (s) |
|---|---:|---:|
${rows.map((r) => `| ${r.slot} | ${r.keyword.toFixed(1)} | ${r.semantic.toFixed(1)} |`).join("\n")}
| mean / max | ${mean(kw).toFixed(1)} / ${max(kw).toFixed(1)} | ${mean(sem).toFixed(1)} / ${max(sem).toFixed(1)} |
`;
appendFileSync(new URL("./RESULTS.md", import.meta.url), report);
console.log(report);
