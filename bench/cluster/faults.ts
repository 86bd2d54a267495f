// Faults under load through the local cluster (deploy/local/cluster.sh): 16 clients of mixed calls through HAProxy
// while one API replica (the feed's follower) is killed with -9, then one OpenSearch node, then PostgreSQL is
// restarted; meanwhile another replica is stopped with SIGTERM (it drains). Checks what a user would notice: no
// answer outside the contract (a 5xx is only 503 upstream_unavailable with its JSON body), no call refused while a
// replica drains, every sampled article found while the node is down, no credit drift (the sum of
// x-credits-charged equals the growth of credits_used), no watch run and no webhook delivery done twice, the
// follower handed over within one poll interval, and calls answering again after PostgreSQL is back without a
// replica restart.
//
//   npm run bench:cluster            (starts the cluster if needed, ingests the bundled sample when it is empty)
//   node --import tsx bench/cluster/faults.ts --report bench/CLUSTER-RESULTS.md
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { appendFileSync, readFileSync, readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { request } from "undici";
import { startHttpsReceiver } from "../../test/support/https-receiver.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const CLUSTER = join(ROOT, "deploy/local/cluster.sh");
const BASE = process.env.NEWSINDEX_CLUSTER_DIR ?? "/var/tmp/newsindex-cluster";
const LB_PORT = Number(process.env.NEWSINDEX_CLUSTER_PORT ?? "8088");
const LB = `http://127.0.0.1:${LB_PORT}`;
/** HAProxy's statistics (cluster.sh: the port after the balancer's). */
const LB_STATS = `http://127.0.0.1:${LB_PORT + 1}/stats;csv`;
const CLIENTS = 16;
const POLL_SECONDS = 5;
const SCHEMA = "newsindex_cluster";
const DATABASE_URL = process.env.NEWSINDEX_CLUSTER_DATABASE_URL ?? "postgres://postgres@127.0.0.1:15432/postgres";
const WATCH_QUERIES = ["police", "election", "market", "court"];
/** How long a replica's claim on a due watch holds (WatchRunner's lease). */
const WATCH_LEASE_MS = 5 * 60_000;

const { values: args } = parseArgs({ options: { report: { type: "string" } } });

interface Tally {
  calls: number;
  byStatus: Map<number, number>;
  /** Answers outside the contract: what and when. */
  outside: string[];
  charged: number;
  /** 503 upstream_unavailable answers, by phase. */
  unavailable: Map<string, number>;
  networkErrors: number;
}

const tally: Tally = { calls: 0, byStatus: new Map(), outside: [], charged: 0, unavailable: new Map(), networkErrors: 0 };
let phase = "warm";
const started = Date.now();
const at = (): string => `${((Date.now() - started) / 1000).toFixed(1)}s`;
const log = (line: string): void => console.error(`[${at()}] ${line}`);

function cluster(...argv: string[]): string {
  return execFileSync("bash", [CLUSTER, ...argv], { encoding: "utf8", env: { ...process.env, ...replicaEnv } });
}

let replicaEnv: Record<string, string> = {};

/** The same, without blocking the event loop: the clients keep calling while a replica or node starts again. */
async function clusterAsync(...argv: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)("bash", [CLUSTER, ...argv], {
    encoding: "utf8",
    env: { ...process.env, ...replicaEnv },
  });
  return stdout;
}

function pids(kind: string): number[] {
  return cluster("pids")
    .split("\n")
    .filter((l) => l.startsWith(`${kind} `))
    .map((l) => Number(l.split(" ")[1]));
}

async function call(key: string, path: string, init: { method?: "GET" | "POST" | "DELETE"; body?: unknown } = {}) {
  const res = await request(`${LB}${path}`, {
    method: init.method ?? "GET",
    headers: { "x-api-key": key, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

/** One call of the mix, recorded against the contract. */
async function mixed(key: string, ids: readonly string[], i: number): Promise<void> {
  const words = ["election", "police", "market", "president", "court", "health", "oil", "school"];
  const word = words[i % words.length] ?? "news";
  const id = ids[i % ids.length] ?? "";
  const paths = [
    `/search?q=${word}&limit=10`,
    `/top-headlines?limit=10`,
    `/stories?q=${word}&limit=5`,
    `/doc/${encodeURIComponent(id)}`,
    `/search?q=${word}&facets=publisher_country&limit=5`,
    `/account`,
  ];
  const path = paths[i % paths.length] ?? "/account";
  tally.calls++;
  try {
    const res = await call(key, path);
    tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
    tally.charged += Number(res.headers["x-credits-charged"] ?? 0);
    // A client that calls again at once when refused spends the key's message rate on refusals (they count),
    // and is then refused everything: each client waits as told.
    if (res.status === 429) await sleep(retryAfterMs(res.headers));
    if (res.status >= 500) {
      let code: unknown;
      try {
        code = (JSON.parse(res.text) as { code?: unknown }).code;
      } catch {
        code = undefined;
      }
      if (res.status === 503 && code === "upstream_unavailable") {
        tally.unavailable.set(phase, (tally.unavailable.get(phase) ?? 0) + 1);
      } else tally.outside.push(`${at()} ${phase} ${path} -> ${res.status} ${res.text.slice(0, 120)}`);
    } else if (res.status >= 400 && res.status !== 429 && res.status !== 404) {
      tally.outside.push(`${at()} ${phase} ${path} -> ${res.status} ${res.text.slice(0, 120)}`);
    }
  } catch (error) {
    tally.networkErrors++;
    tally.outside.push(`${at()} ${phase} ${path} -> no answer: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function creditsUsed(key: string): Promise<number> {
  for (;;) {
    const res = await call(key, "/account");
    if (res.status === 200) return (JSON.parse(res.text) as { credits_used: number }).credits_used;
    await sleep(1000);
  }
}

/**
 * What the watches did: how many ran (a run sets `last_run_at`), the events they recorded (their events lists),
 * and how many runs were charged (the tenant's `watch runs` usage counter, one per run done).
 */
async function watchRuns(
  watchKey: string,
  tenant: string,
  ids: readonly string[],
): Promise<{ ran: number; events: number; charged: number }> {
  let ran = 0;
  let events = 0;
  for (const id of ids) {
    const watch = await call(watchKey, `/watches/${id}`);
    if (watch.status === 200 && (JSON.parse(watch.text) as { last_run_at: string | null }).last_run_at !== null) ran++;
    let after = "";
    for (;;) {
      const page = await call(watchKey, `/watches/${id}/events?limit=100${after ? `&after=${after}` : ""}`);
      if (page.status !== 200) break;
      const body = JSON.parse(page.text) as { events: unknown[]; next_after: string | null };
      events += body.events.length;
      if (body.next_after === null || body.events.length === 0) break;
      after = encodeURIComponent(body.next_after);
    }
  }
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ calls: string | null }>(
      `SELECT sum(u.calls) AS calls FROM ${SCHEMA}.usage_days u JOIN ${SCHEMA}.tenants t ON t.id = u.tenant_id
        WHERE t.name = $1 AND u.operation = 'watch runs'`,
      [tenant],
    );
    return { ran, events, charged: Number(rows[0]?.calls ?? 0) };
  } finally {
    await client.end();
  }
}

/** Calls HAProxy sent again (to the same replica or another) and sent to another replica, so far. */
async function balancerRetries(): Promise<{ retries: number; redispatches: number }> {
  const res = await request(LB_STATS);
  const [header = "", ...rows] = (await res.body.text()).split("\n");
  const columns = header.replace(/^# /, "").split(",");
  const column = (row: string[], name: string): number => Number(row[columns.indexOf(name)] ?? 0);
  for (const line of rows) {
    const row = line.split(",");
    if (row[0] === "replicas" && row[1] === "BACKEND")
      return { retries: column(row, "wretr"), redispatches: column(row, "wredis") };
  }
  throw new Error("no backend `replicas` in HAProxy's statistics");
}

/** What HAProxy retried between two readings, as a report's words. */
function retriedSince(
  before: { retries: number; redispatches: number },
  after: { retries: number; redispatches: number },
): string {
  return `HAProxy retried ${after.retries - before.retries} calls, ${after.redispatches - before.redispatches} on another replica`;
}

/** How long a 429 says to wait before calling again. */
function retryAfterMs(headers: Record<string, string | string[] | undefined>): number {
  const seconds = Number(headers["retry-after"]);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
}

/** One delivery: an event of a watch. */
function deliveryOf(request: { body: string }): string {
  const body = JSON.parse(request.body) as { watch_id: string; event: { id: string } };
  return `${body.watch_id} ${body.event.id}`;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The replica whose log last says it follows the feed (its number, 1-3). */
function follower(): number | undefined {
  let best: { n: number; time: number } | undefined;
  for (const n of [1, 2, 3]) {
    for (const line of readFileSync(join(BASE, `api/r${n}/serve.log`), "utf8").split("\n")) {
      if (!line.includes('"msg":"following the feed"')) continue;
      const time = (JSON.parse(line) as { time: number }).time;
      if (best === undefined || time > best.time) best = { n, time };
    }
  }
  return best?.n;
}

function followingSince(n: number, sinceMs: number): number | undefined {
  for (const line of readFileSync(join(BASE, `api/r${n}/serve.log`), "utf8").split("\n")) {
    if (!line.includes('"msg":"following the feed"')) continue;
    const time = (JSON.parse(line) as { time: number }).time;
    if (time >= sinceMs) return time;
  }
  return undefined;
}

async function main(): Promise<void> {
  const receiver = await startHttpsReceiver(["localhost"]);
  replicaEnv = {
    // A feed nobody answers: the lease is what is followed here (taken before each round), not GDELT.
    NEWSINDEX_CLUSTER_FEED: "http://127.0.0.1:9/gdeltv2/",
    NEWSINDEX_FOLLOW_POLL_SECONDS: String(POLL_SECONDS),
    NEWSINDEX_WEBHOOK_TEST_HOST: "localhost",
    NEWSINDEX_WEBHOOK_TEST_CA_FILE: receiver.caFile,
    NEWSINDEX_CLUSTER_EMBED: "off",
    // The replicas live just after the sample's newest file, so the watches' first runs find its stories.
    NEWSINDEX_CLUSTER_NOW: "20230702160000",
  };
  // Replicas start again with this run's settings (the feed, the poll interval, the receiver's certificate).
  for (const pid of pids("api")) process.kill(pid, "SIGTERM");
  // A replica drains for 7 s before it closes.
  while (pids("api").length > 0) await sleep(1000);
  cluster("up");
  // A tenant of this run's own: each run starts the replay clock again from the same instant, and a key's rate
  // buckets, stamped with a previous run's later replay times, would refill only once the clock passed them.
  const runId = Date.now();
  const key = /^KEY (\S+)$/m.exec(cluster("key", `faults-load-${runId}`))?.[1];
  if (key === undefined) throw new Error("no key for the load's tenant");
  // The balancer sends calls to the restarted replicas after two passed checks.
  let count = await call(key, "/search?limit=1");
  for (let i = 0; i < 60 && count.status !== 200; i++) {
    await sleep(1000);
    count = await call(key, "/search?limit=1");
  }
  if (count.status !== 200) throw new Error(`the cluster does not answer: ${count.status} ${count.text.slice(0, 200)}`);
  if ((JSON.parse(count.text) as { total: number }).total === 0) {
    log("ingesting the bundled sample");
    const sample = join(ROOT, "data/gkg");
    cluster(
      "ingest",
      ...readdirSync(sample)
        .filter((f) => f.endsWith(".gz"))
        .map((f) => join(sample, f)),
    );
  }
  const watchTenant = `faults-watches-${runId}`;
  const watchKey = /^KEY (\S+)$/m.exec(cluster("key", watchTenant))?.[1];
  if (watchKey === undefined) throw new Error("no key for the watches' tenant");

  // Articles to find while a node is down: ids of every sampled month.
  const ids = new Set<string>();
  for (const q of ["police", "election", "market", "president", "court", "health", "oil", "school", "water", "war"]) {
    const res = await call(key, `/search?q=${q}&limit=50`);
    if (res.status === 200) for (const a of (JSON.parse(res.text) as { results: Array<{ id: string }> }).results) ids.add(a.id);
  }
  const sample = [...ids];
  log(`${sample.length} articles sampled`);

  // Watches of another tenant (their runs are charged to it, not to the load's key), each due at once, with a
  // webhook: one run each in this run (interval 60 min), every story of the sample's last half hour a new_story.
  const watchIds: string[] = [];
  const createWatches = async (): Promise<void> => {
    for (const q of WATCH_QUERIES) {
      const res = await call(watchKey, "/watches", {
        method: "POST",
        body: { q, interval_minutes: 60, minimum_outlets: 1, notify_on: ["new_story"], webhook_url: receiver.url("localhost") },
      });
      if (res.status === 201) watchIds.push((JSON.parse(res.text) as { id: string }).id);
      else log(`watch not created: ${res.status} ${res.text.slice(0, 200)}`);
    }
  };

  const usedBefore = await creditsUsed(key);
  const chargedBefore = tally.charged;
  let running = true;
  let n = 0;
  const clients = Array.from({ length: CLIENTS }, async () => {
    while (running) await mixed(key, sample, n++);
  });
  const results: string[] = [];
  phase = "steady";
  // The first watches run and deliver under load; the second batch is due as the follower is killed.
  await createWatches();
  await sleep(8_000);
  await createWatches();
  await sleep(2_000);

  // 1. kill -9 the replica following the feed.
  const lead = follower();
  const apiPids = pids("api");
  const victim = lead === undefined ? undefined : Number(readFileSync(join(BASE, `api/r${lead}/pid`), "utf8"));
  phase = "api-killed";
  const retriesBeforeKill = await balancerRetries();
  const killedAt = Date.now();
  if (victim !== undefined && apiPids.includes(victim)) process.kill(victim, "SIGKILL");
  log(`killed api r${lead} (pid ${victim}), the follower`);
  let handover: number | undefined;
  for (let i = 0; i < 40 && handover === undefined; i++) {
    await sleep(500);
    for (const m of [1, 2, 3].filter((x) => x !== lead)) {
      const t = followingSince(m, killedAt);
      if (t !== undefined) handover = t - killedAt;
    }
  }
  results.push(
    `follower handover after kill -9: ${handover === undefined ? "none within 20 s" : `${(handover / 1000).toFixed(1)} s`} (poll interval ${POLL_SECONDS} s)`,
  );
  await sleep(5_000);
  const killRetried = retriedSince(retriesBeforeKill, await balancerRetries());
  const killOutside = tally.outside.filter((o) => o.includes(" api-killed ")).length;
  results.push(
    `while the follower was down: ${killRetried}; ${tally.unavailable.get("api-killed") ?? 0} calls answered 503, ${killOutside} outside the contract`,
  );
  phase = "api-restart";
  if (lead !== undefined) await clusterAsync("start", "api", String(lead));
  log(`api r${lead} back`);

  // 1b. SIGTERM to a replica that does not follow the feed: it drains (readiness fails, calls under way are
  // answered), HAProxy takes it out and retries on another replica what it refuses; no client sees an error.
  const following = follower();
  const drained = [1, 2, 3].find((m) => m !== following && m !== lead) ?? 1;
  const drainedPid = Number(readFileSync(join(BASE, `api/r${drained}/pid`), "utf8"));
  phase = "api-sigterm";
  const retriesBeforeTerm = await balancerRetries();
  const termAt = Date.now();
  const callsBefore = tally.calls;
  process.kill(drainedPid, "SIGTERM");
  log(`SIGTERM to api r${drained} (pid ${drainedPid})`);
  while (pids("api").includes(drainedPid) && Date.now() - termAt < 40_000) await sleep(250);
  const drainedIn = Date.now() - termAt;
  const sigtermOutside = tally.outside.filter((o) => o.includes(" api-sigterm ")).length;
  results.push(
    `SIGTERM to api r${drained} under load: exited after ${(drainedIn / 1000).toFixed(1)} s; ${tally.calls - callsBefore} calls meanwhile, ${tally.unavailable.get("api-sigterm") ?? 0} answered 503, ${sigtermOutside} outside the contract; ${retriedSince(retriesBeforeTerm, await balancerRetries())}`,
  );
  phase = "api-sigterm-restart";
  await clusterAsync("start", "api", String(drained));
  log(`api r${drained} back`);

  // 2. kill -9 one OpenSearch node; every sampled article must still be found.
  phase = "node-killed";
  const node = pids("opensearch")[2];
  if (node !== undefined) process.kill(node, "SIGKILL");
  log(`killed opensearch pid ${node}`);
  await sleep(3_000);
  // A 503 tells the client to retry (spec section 7): an article counts as found when a retry within 3 tries finds it.
  let found = 0;
  let foundFirst = 0;
  const missing: string[] = [];
  for (const id of sample) {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const res = await call(key, `/doc/${encodeURIComponent(id)}`);
      tally.charged += Number(res.headers["x-credits-charged"] ?? 0);
      // The key's rate, spent by the clients: not an answer about the article.
      if (res.status === 429) {
        await sleep(retryAfterMs(res.headers));
        attempt--;
        continue;
      }
      if (res.status === 200) {
        found++;
        if (attempt === 1) foundFirst++;
        break;
      }
      if (attempt === 3) missing.push(`${id}: ${res.status} ${res.text.slice(0, 80)}`);
      else await sleep(1000);
    }
  }
  results.push(
    `articles found with one OpenSearch node down: ${found} of ${sample.length} (${foundFirst} at the first try, the rest on a retry after a 503)${missing.length ? ` (missing: ${missing.slice(0, 5).join("; ")})` : ""}`,
  );
  phase = "node-restart";
  // Started again in the background: on a loaded 2-core machine a node takes minutes to join, and PostgreSQL is
  // restarted meanwhile (the cluster carries on with two nodes).
  let nodeBack = false;
  const nodeStart = clusterAsync("start", "opensearch", "3").then(
    () => {
      nodeBack = true;
      log("opensearch n3 back");
    },
    (error: unknown) =>
      log(`opensearch n3 not back yet: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`),
  );

  // 3. PostgreSQL restarted under load: 503 while down, answers again after, no replica restarted.
  phase = "postgres-down";
  const pgBin = execFileSync("bash", ["-c", "ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1"], { encoding: "utf8" }).trim();
  const pgData = join(BASE, "postgres/data");
  await promisify(execFile)("runuser", ["-u", "os", "--", `${pgBin}/pg_ctl`, "-D", pgData, "-m", "fast", "-w", "stop"]);
  const downAt = Date.now();
  log("postgres stopped");
  await sleep(8_000);
  await promisify(execFile)("runuser", [
    "-u",
    "os",
    "--",
    `${pgBin}/pg_ctl`,
    "-D",
    pgData,
    "-l",
    join(BASE, "postgres/server.log"),
    "-w",
    "-o",
    `-p 15432 -k ${join(BASE, "postgres")} -c listen_addresses=127.0.0.1`,
    "start",
  ]);
  log("postgres started");
  phase = "postgres-back";
  const backAt = Date.now();
  let recovered: number | undefined;
  while (recovered === undefined && Date.now() - backAt < 60_000) {
    const res = await call(key, "/search?q=police&limit=1");
    tally.charged += Number(res.headers["x-credits-charged"] ?? 0);
    if (res.status === 200) recovered = Date.now() - backAt;
    else await sleep(250);
  }
  results.push(
    `PostgreSQL stopped ${((backAt - downAt) / 1000).toFixed(1)} s: ${tally.unavailable.get("postgres-down") ?? 0} calls answered 503 upstream_unavailable meanwhile; first 200 ${recovered === undefined ? "not within 60 s" : `${(recovered / 1000).toFixed(1)} s after its start`}, no replica restarted`,
  );
  await sleep(10_000);
  phase = "done";
  running = false;
  await Promise.all(clients);
  const apiAlive = pids("api").length;

  // Holds the killed replica left are given back by a survivor's sweep (every 60 s) before the figures are read.
  log("waiting 65 s for the abandoned-hold sweep");
  await sleep(65_000);
  const usedAfter = await creditsUsed(key);
  const charged = tally.charged - chargedBefore;
  results.push(
    `credits: sum of x-credits-charged ${charged}; credits_used grew ${usedAfter - usedBefore} (drift ${usedAfter - usedBefore - charged})`,
  );

  // A run the killed replica had claimed is taken over once its lease (5 minutes) runs out, and its events are
  // delivered then: the run waits for every watch to have run and every recorded event to have arrived.
  const distinctReceived = (): number => new Set(receiver.requests.map(deliveryOf)).size;
  let runs = await watchRuns(watchKey, watchTenant, watchIds);
  const ranAtLoadEnd = runs.ran;
  const loadEndAfterKill = (Date.now() - killedAt) / 1000;
  log(`${runs.ran} of ${watchIds.length} watches ran; waiting for the others' leases`);
  while ((runs.ran < watchIds.length || distinctReceived() < runs.events) && Date.now() - killedAt < WATCH_LEASE_MS + 120_000) {
    await sleep(5_000);
    runs = await watchRuns(watchKey, watchTenant, watchIds);
  }
  const lastRunAfterKill = (Date.now() - killedAt) / 1000;
  // A delivery is one event of one watch to its webhook: received twice, it was done twice (the receiver never
  // fails one, so no delivery is retried).
  const received = receiver.requests.map(deliveryOf);
  const deliveryIds = new Set(receiver.requests.map((r) => String(r.headers["x-service-delivery"])));
  const twice = received.filter((e, i) => received.indexOf(e) !== i);
  results.push(
    `watches: ${watchIds.length} created (four at once, four 2 s before the kill); ${ranAtLoadEnd} had run ${loadEndAfterKill.toFixed(0)} s after the kill, ${runs.ran} by ${lastRunAfterKill.toFixed(0)} s${ranAtLoadEnd < runs.ran ? " (the others were claimed by the killed replica: taken over once its 5-minute lease ran out)" : ""}; watch runs charged ${runs.charged} (${Math.max(0, runs.charged - runs.ran)} done twice); ${runs.events} events recorded`,
  );
  results.push(
    `webhook deliveries: ${received.length} received (${deliveryIds.size} delivery ids), ${new Set(received).size} distinct events, ${twice.length} received twice; ${runs.events - new Set(received).size} recorded events not delivered by the end`,
  );
  results.push(
    `calls: ${tally.calls}; by status ${JSON.stringify(Object.fromEntries(tally.byStatus))}; 503 upstream_unavailable by phase ${JSON.stringify(Object.fromEntries(tally.unavailable))}`,
  );
  results.push(
    `answers outside the contract: ${tally.outside.length}${tally.outside.length ? `\n    ${tally.outside.slice(0, 10).join("\n    ")}` : ""}`,
  );
  results.push(`replicas alive at the end: ${apiAlive} of 3; OpenSearch node n3 back before the end: ${nodeBack}`);
  // The watches go with the run: a later run's replay clock would find them due again.
  for (const id of watchIds) await call(watchKey, `/watches/${id}`, { method: "DELETE" });
  await receiver.close();
  void nodeStart;

  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
  const report = `\n## Faults run ${new Date().toISOString()} (load average ${load})\n\n${results.map((r) => `- ${r}`).join("\n")}\n`;
  console.log(report);
  if (args.report) appendFileSync(args.report, report);
  const ok =
    tally.outside.length === 0 &&
    (tally.unavailable.get("api-sigterm") ?? 0) === 0 &&
    received.length > 0 &&
    runs.ran === watchIds.length &&
    runs.charged <= runs.ran &&
    new Set(received).size === runs.events &&
    found === sample.length &&
    usedAfter - usedBefore === charged &&
    twice.length === 0 &&
    handover !== undefined &&
    handover <= POLL_SECONDS * 1000 + 1000 &&
    recovered !== undefined;
  process.exitCode = ok ? 0 : 1;
}

await main();
