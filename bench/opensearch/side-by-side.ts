import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { Client } from "undici";
import { generateCorpus } from "../corpus/generate-corpus.js";
import { startChild, type ChildServer } from "../scale/child-server.js";
import { bytesUnder, monthlyIndexes } from "../scale/disk-usage.js";
import { load, loadAverage, machine, summarise, type Latency, type Throughput } from "../scale/measure.js";
import { ingestPass } from "../scale/run-ingest.js";
import { startCaptureProxy, type NodeRequest } from "./capture-proxy.js";
import { findJdk, jdkAt, type Jdk } from "./jdk.js";
import { findUpScript, freePort, startNode } from "./node.js";
import { SIDE_ROWS, type SideRow } from "./paired-queries.js";
import { loadScaled, scaledEnv, type ScaledLoad } from "./scaled-shape.js";
import { bulkRate, dropBulk, sampleArticles, type BulkRate } from "./bulk-rate.js";
import { openSearchClient } from "../../src/adapters/opensearch/client.js";

// Three columns on one machine and one generated corpus (issue 27; the fair
// anchor of issue 33):
//   embedded  the API over the SQLite index (NEWSINDEX_INDEX=sqlite)
//   scaled    the API over a real OpenSearch node (NEWSINDEX_INDEX=opensearch,
//             PostgreSQL control store in a schema of its own)
//   raw       the very requests the scaled API sent the node for the same call
//             (captured through a recording proxy, capture-proxy.ts), replayed
//             against the node in the same order: the ratio scaled / raw is
//             what the API adds to its own queries.
// The node's monthly indices are sorted on disk (published_at desc, id desc,
// article-mapping.ts) and merged to one segment before anything is timed; the
// warm-up runs the whole mix on all three until the raw column's latency is
// stable; latency rows take turns call by call, throughput runs take turns
// system by system, twice. The node is the bench's own (its port and base dir
// under bench/.data), never a shared one.

export interface SideBySideOptions {
  repoRoot: string;
  /** bench/.data: corpora, indexes, the OpenSearch node's directory. */
  dataRoot: string;
  articles: number;
  months: number;
  seconds: number;
  reuse: boolean;
  /** Overrides: the recipe script and the JDK. */
  script?: string;
  javaHome?: string;
  port: number;
  heap: string;
  /** PostgreSQL for the scaled API's control store (a schema of its own, dropped afterwards). */
  databaseUrl: string;
  /** The load average before the whole bench, when the side by side follows the scale run: then its own load is the bench's. */
  loadBeforeBench?: string;
}

interface Row {
  row: SideRow;
  path: string;
  /** What the scaled API sent the node for one call (the catalog read, cached a second, left out). */
  requests: NodeRequest[];
  embedded: Latency;
  scaled: Latency;
  raw: Latency;
  agreement: string;
}

interface ThroughputRow {
  name: string;
  path: string;
  embedded: Throughput;
  scaled: Throughput;
  /** API calls per second: requests per second over the requests one call sends. */
  raw: Throughput;
}

export interface SideBySide {
  loadBefore: string;
  loadAfter: string;
  jdk: Jdk;
  osVersion: string;
  luceneVersion: string;
  corpusArticles: number;
  embeddedIngestSeconds: number | undefined;
  embeddedPartitions: number;
  embeddedIndexBytes: number;
  scaled: ScaledLoad;
  /** Bulk ingest into the node, the write alone (bulk-rate.ts), with the load average after it. */
  bulk: BulkRate & { loadAfter: string };
  warmUp: { seconds: number; windows: number[]; stable: boolean };
  rows: Row[];
  throughput: ThroughputRow[];
}

const MIN_JAVA = 21;
/** The warm-up: windows of this long, until two successive windows' raw p50 differ by less than STABLE, at most MAX. */
const WARM_WINDOW_SECONDS = 4;
const WARM_STABLE = 0.05;
const WARM_MAX_SECONDS = 120;
const THROUGHPUT_ROUNDS = 2;
/** The bulk ingest rate: this many sample copies into 3 monthly indices, in ingest's batches of 2,000. */
const BULK_ARTICLES = 60_000;

/** Why the side by side cannot run here, or undefined when it can. */
export function sideBySideUnavailable(o: Pick<SideBySideOptions, "repoRoot" | "script" | "javaHome">): string | undefined {
  const jdk = o.javaHome ? jdkAt(o.javaHome) : findJdk(MIN_JAVA);
  if (!jdk || jdk.major < MIN_JAVA)
    return `no JDK >= ${MIN_JAVA} found${o.javaHome ? ` at ${o.javaHome}` : " under /usr/lib/jvm"}`;
  if (!findUpScript(o.repoRoot, o.script)) return "no shared/opensearch/opensearch-up.sh beside the repository";
  return undefined;
}

type Api = ChildServer<{ port: number; key: string }>;

export async function sideBySide(o: SideBySideOptions): Promise<SideBySide> {
  const loadBefore = loadAverage();
  const jdk = (o.javaHome ? jdkAt(o.javaHome) : findJdk(MIN_JAVA)) as Jdk;
  const script = findUpScript(o.repoRoot, o.script) as string;

  const corpusDir = join(o.dataRoot, `corpus-${o.articles}`);
  console.error(`side by side: generating ${o.articles} articles into ${corpusDir} (reused when already there) ...`);
  const corpus = await generateCorpus({
    articles: o.articles,
    firstMonth: "2024-01",
    months: o.months,
    outDir: corpusDir,
    seed: 1,
  });
  const embeddedDir = join(o.dataRoot, `side-index-${o.articles}`);
  const marker = join(embeddedDir, "BENCH-CORPUS.json");
  let embeddedIngestSeconds: number | undefined;
  if (!(o.reuse && existsSync(marker) && readFileSync(marker, "utf8") === corpus.key)) {
    embeddedIngestSeconds = (await ingestPass("clustered", corpusDir, embeddedDir)).seconds;
    writeFileSync(marker, corpus.key);
  }

  const base = join(o.dataRoot, "opensearch-scaled");
  const port = await freePort(o.port);
  console.error(
    `side by side: starting OpenSearch (${jdk.home}, Java ${jdk.major}, heap ${o.heap}) on port ${port} in ${base} ...`,
  );
  let stopping: Promise<void> | undefined;
  const node = await startNode({ script, javaHome: jdk.home, base, port, heap: o.heap });
  // Stop the node on Ctrl-C too: it runs as a daemon and would outlive the bench.
  const onSignal = (signal: NodeJS.Signals): void => {
    stopping ??= node.stop();
    void stopping.finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const prefix = `bench-scaled-${o.articles}`;
  const schema = `bench_scaled_${randomBytes(4).toString("hex")}`;
  const apis: Api[] = [];
  const osClient = new Client(node.origin, { pipelining: 1 });
  const clients: Client[] = [osClient];
  const proxy = await startCaptureProxy(node.origin);
  try {
    const about = (await (await osClient.request({ method: "GET", path: "/" })).body.json()) as {
      version: { number: string; lucene_version: string };
    };
    console.error(`side by side: the scaled shape's index on OpenSearch ${about.version.number} ...`);
    const scaled = await loadScaled({
      origin: node.origin,
      prefix,
      corpusDir,
      corpusKey: corpus.key,
      dataDir: join(o.dataRoot, `side-scaled-${o.articles}`),
      reuse: o.reuse,
    });
    console.error(`  ${scaled.articles} articles, merged to one segment per month in ${scaled.mergeSeconds.toFixed(0)} s`);
    const bulk = await measureBulk(node.origin);
    console.error(`side by side: bulk ingest into the node ${Math.round(bulk.perSecond)} records/s`);

    const control = {
      NEWSINDEX_CONTROL_STORE: "postgres",
      NEWSINDEX_DATABASE_URL: o.databaseUrl,
      NEWSINDEX_DATABASE_SCHEMA: schema,
    };
    const scaledDir = join(o.dataRoot, `side-scaled-${o.articles}`);
    const embeddedApi = await startChild<{ port: number; key: string }>("./serve-api.ts", [embeddedDir]);
    apis.push(embeddedApi);
    const scaledApi = await startChild<{ port: number; key: string }>("./serve-api.ts", [scaledDir], {
      ...scaledEnv(node.origin, prefix),
      ...control,
    });
    apis.push(scaledApi);
    // The same API, its node requests through the recording proxy: asked once per row, never timed.
    const capturingApi = await startChild<{ port: number; key: string }>("./serve-api.ts", [scaledDir], {
      ...scaledEnv(proxy.origin, prefix),
      ...control,
    });
    apis.push(capturingApi);

    const apiCall = (api: Api): ((path: string) => Promise<string>) => {
      const client = new Client(`http://127.0.0.1:${api.info.port}`, { pipelining: 1 });
      clients.push(client);
      const headers = { "x-api-key": api.info.key };
      return async (path) => {
        const response = await client.request({ method: "GET", path, headers });
        const text = await response.body.text();
        if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${text.slice(0, 300)}`);
        return text;
      };
    };
    const embeddedCall = apiCall(embeddedApi);
    const scaledCall = apiCall(scaledApi);
    const capturingCall = apiCall(capturingApi);
    const rawCall = async (requests: readonly NodeRequest[]): Promise<void> => {
      for (const r of requests) {
        const response = await osClient.request({
          method: r.method,
          path: r.path,
          ...(r.body === undefined ? {} : { body: r.body, headers: { "content-type": "application/json" } }),
        });
        const text = await response.body.text();
        if (response.statusCode !== 200) throw new Error(`OpenSearch ${r.path}: ${response.statusCode} ${text.slice(0, 300)}`);
      }
    };

    const entities = JSON.parse(await embeddedCall("/entities?q=biden&type=person")) as {
      entities: Array<{ entity_id: string }>;
    };
    const entity = entities.entities[0]?.entity_id;
    if (entity === undefined) throw new Error("no entity for biden in the corpus");
    const pathOf = (row: SideRow): string => row.path.replace("{entity}", encodeURIComponent(entity));

    // What the scaled API sends the node for each row (a second call: the first may read the month catalog).
    const plans: Array<{ row: SideRow; path: string; requests: NodeRequest[] }> = [];
    for (const row of SIDE_ROWS) {
      const path = pathOf(row);
      await capturingCall(path);
      proxy.clear();
      await capturingCall(path);
      const requests = proxy.take().filter((r) => !r.path.startsWith("/_cat/"));
      if (requests.length === 0) throw new Error(`${row.name}: the scaled API sent the node nothing`);
      plans.push({ row, path, requests });
    }
    await capturingApi.stop();
    apis.splice(apis.indexOf(capturingApi), 1);

    const roundOf = (plan: (typeof plans)[number]): Array<() => Promise<unknown>> => [
      () => embeddedCall(plan.path),
      () => scaledCall(plan.path),
      () => rawCall(plan.requests),
    ];

    // Warm-up: the whole mix on all three, window after window, until the raw column's p50 holds still.
    console.error("side by side: warming up until OpenSearch's latency is stable");
    const warmStart = performance.now();
    const windows: number[] = [];
    let stable = false;
    while (performance.now() - warmStart < WARM_MAX_SECONDS * 1000) {
      const samples: number[] = [];
      const end = performance.now() + WARM_WINDOW_SECONDS * 1000;
      while (performance.now() < end) {
        for (const plan of plans) {
          const [a, b, c] = roundOf(plan) as [() => Promise<unknown>, () => Promise<unknown>, () => Promise<unknown>];
          await a();
          await b();
          const t = performance.now();
          await c();
          samples.push(performance.now() - t);
        }
      }
      windows.push(summarise(samples).p50);
      const [previous, last] = windows.slice(-2) as [number, number];
      if (windows.length >= 2 && Math.abs(last - previous) / previous < WARM_STABLE) {
        stable = true;
        break;
      }
    }
    const warmUp = { seconds: (performance.now() - warmStart) / 1000, windows, stable };
    console.error(`  ${warmUp.seconds.toFixed(0)} s, raw p50 per window ${windows.map((w) => w.toFixed(2)).join(", ")}`);

    const rows: Row[] = [];
    for (const plan of plans) {
      console.error(`side by side: ${plan.row.name}`);
      const agreement = agree(JSON.parse(await embeddedCall(plan.path)), JSON.parse(await scaledCall(plan.path)));
      const [embedded, scaledLatency, raw] = (await timeRoundRobin(roundOf(plan), o.seconds)) as [Latency, Latency, Latency];
      rows.push({ row: plan.row, path: plan.path, requests: plan.requests, embedded, scaled: scaledLatency, raw, agreement });
    }

    const throughput: ThroughputRow[] = [];
    for (const plan of plans) {
      if (!plan.row.throughput) continue;
      console.error(`side by side: ${plan.row.throughput} at 10 connections`);
      const runs: Throughput[][] = [[], [], []];
      const seconds = Math.max(2, Math.round(o.seconds / THROUGHPUT_ROUNDS));
      for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
        runs[0]?.push(
          await load(`http://127.0.0.1:${embeddedApi.info.port}${plan.path}`, { "x-api-key": embeddedApi.info.key }, 10, seconds),
        );
        runs[1]?.push(
          await load(`http://127.0.0.1:${scaledApi.info.port}${plan.path}`, { "x-api-key": scaledApi.info.key }, 10, seconds),
        );
        runs[2]?.push(await loadSequence(node.origin, plan.requests, 10, seconds));
      }
      const [embedded, scaledRuns, raw] = runs.map(meanThroughput) as [Throughput, Throughput, Throughput];
      throughput.push({ name: plan.row.throughput, path: plan.path, embedded, scaled: scaledRuns, raw });
    }
    return {
      loadBefore,
      loadAfter: loadAverage(),
      jdk,
      osVersion: about.version.number,
      luceneVersion: about.version.lucene_version,
      corpusArticles: corpus.articles,
      embeddedIngestSeconds,
      embeddedPartitions: monthlyIndexes(embeddedDir),
      embeddedIndexBytes: bytesUnder(join(embeddedDir, "index")),
      scaled,
      bulk,
      warmUp,
      rows,
      throughput,
    };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    for (const api of apis) await api.stop();
    await Promise.all(clients.map((c) => c.close()));
    await proxy.close();
    await dropSchema(o.databaseUrl, schema);
    await (stopping ?? node.stop());
  }
}

/** Bulk ingest into the node, the write alone, under a prefix of its own removed afterwards. */
async function measureBulk(origin: string): Promise<BulkRate & { loadAfter: string }> {
  const client = openSearchClient({ urls: [origin], requestTimeoutMs: 120_000 });
  const sample = await sampleArticles();
  const prefix = `bench-bulk-${Date.now()}`;
  let index: Awaited<ReturnType<typeof bulkRate>>["index"] | undefined;
  try {
    const measured = await bulkRate(client, { prefix, sample, total: BULK_ARTICLES, months: 3, batch: 2000 });
    index = measured.index;
    return { ...measured.rate, loadAfter: loadAverage() };
  } finally {
    if (index) await dropBulk(client, index);
    await client.close();
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await db.end();
  }
}

/**
 * Each call in turn for about `seconds` after a second's warm-up, the first of a round moving on by one each round
 * (a, b, c, then b, c, a, then c, a, b, ...): each column follows each other equally often, so none always runs on
 * the caches the one before it warmed or evicted (raw always after scaled replayed the very request the scaled API
 * had just sent). Each one's latency in ms.
 */
async function timeRoundRobin(calls: Array<() => Promise<unknown>>, seconds: number): Promise<Latency[]> {
  const warm = performance.now() + 1000;
  while (performance.now() < warm) for (const call of calls) await call();
  const samples: number[][] = calls.map(() => []);
  const end = performance.now() + seconds * 1000;
  for (let round = 0; performance.now() < end; round++) {
    for (let k = 0; k < calls.length; k++) {
      const i = (round + k) % calls.length;
      const t = performance.now();
      await calls[i]?.();
      samples[i]?.push(performance.now() - t);
    }
  }
  return samples.map(summarise);
}

/** autocannon over the node with the captured requests as each connection's sequence; rates per API call. */
async function loadSequence(
  origin: string,
  requests: readonly NodeRequest[],
  connections: number,
  seconds: number,
): Promise<Throughput> {
  if (requests.length === 1 && requests[0]?.method === "POST") {
    const [only] = requests as [NodeRequest];
    return load(origin + only.path, {}, connections, seconds, only.body);
  }
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    requests: requests.map((r) => ({
      method: r.method,
      path: r.path,
      ...(r.body === undefined ? {} : { body: r.body, headers: { "content-type": "application/json" } }),
    })),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${origin}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average / requests.length, p50: result.latency.p50, p99: result.latency.p99 };
}

function meanThroughput(runs: readonly Throughput[]): Throughput {
  const mean = (f: (t: Throughput) => number): number => runs.reduce((s, t) => s + f(t), 0) / Math.max(1, runs.length);
  return { requestsPerSecond: mean((t) => t.requestsPerSecond), p50: mean((t) => t.p50), p99: mean((t) => t.p99) };
}

/** Whether both shapes answered alike: totals of a search, buckets of a series, edges of a graph call. */
function agree(embedded: Record<string, unknown>, scaled: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof embedded.total === "number") parts.push(`totals ${embedded.total} / ${String(scaled.total)}`);
  for (const key of ["buckets", "series", "related", "results"]) {
    const a = embedded[key];
    const b = scaled[key];
    if (Array.isArray(a) && Array.isArray(b)) parts.push(`${a.length} / ${b.length} ${key}`);
  }
  for (const key of ["partial", "approximate"]) {
    if (embedded[key] !== undefined || scaled[key] !== undefined)
      parts.push(`${key} ${String(embedded[key])} / ${String(scaled[key])}`);
  }
  return parts.join(", ");
}

const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v.toFixed(1));
const mib = (b: number): string => `${Math.round(b / 2 ** 20)} MiB`;
const x = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;

/** The section of bench/RESULTS.md. */
export function renderSideBySide(r: SideBySide, o: SideBySideOptions, command: string): string {
  const busy = Number((o.loadBeforeBench ?? r.loadBefore).split(" / ")[0]) >= 2;
  const rows = r.rows.map(
    (row) =>
      `| ${row.row.name} | \`${row.path}\` | ${row.requests.length} | ${ms(row.embedded.p50)} / ${ms(row.embedded.p99)} | ${ms(row.scaled.p50)} / ${ms(row.scaled.p99)} | ${ms(row.raw.p50)} / ${ms(row.raw.p99)} | **${x(row.scaled.p50, row.raw.p50)}** | ${x(row.embedded.p50, row.raw.p50)} |`,
  );
  const throughput = r.throughput.map(
    (t) =>
      `| ${t.name} | \`${t.path}\` | ${Math.round(t.embedded.requestsPerSecond)} | ${Math.round(t.scaled.requestsPerSecond)} | ${Math.round(t.raw.requestsPerSecond)} | **${x(t.scaled.requestsPerSecond, t.raw.requestsPerSecond)}** | ${x(t.embedded.requestsPerSecond, t.raw.requestsPerSecond)} |`,
  );
  const verdict = (met: boolean, text: string): string => (met ? "met" : `missed: ${text}`);
  const oneMillion = r.corpusArticles >= 1_000_000;
  const targets = [
    ...r.rows.map((row) => {
      const ratio = row.scaled.p50 / row.raw.p50;
      return `| scaled API p50 <= 1.3x raw: ${row.row.name} | ${ratio.toFixed(2)}x | ${verdict(ratio <= 1.3, `${ms(row.scaled.p50 - 1.3 * row.raw.p50)} ms above 1.3x`)} |`;
    }),
    ...r.rows.flatMap((row) =>
      row.row.targetMs === undefined || (row.row.targetMs === 300 && !oneMillion)
        ? []
        : [
            `| scaled API p50 <= ${row.row.targetMs} ms${row.row.targetMs === 300 ? " at 1M" : ""}: ${row.row.name} | ${ms(row.scaled.p50)} ms | ${verdict(row.scaled.p50 <= row.row.targetMs, `${(row.scaled.p50 / row.row.targetMs).toFixed(1)}x over`)} |`,
          ],
    ),
    `| bulk ingest into the node >= 5,000 records/s (write alone) | ${Math.round(r.bulk.perSecond).toLocaleString("en")} /s | ${verdict(r.bulk.perSecond >= 5000, `${(5000 / r.bulk.perSecond).toFixed(2)}x short`)} |`,
    ...r.throughput
      .filter((t) => t.name === "keyword")
      .map((t) => {
        const ratio = t.scaled.requestsPerSecond / t.raw.requestsPerSecond;
        const short = ratio > 0 ? `${(0.5 / ratio).toFixed(1)}x short` : "no call completed in the scaled runs";
        return `| scaled keyword throughput at 10 connections >= 0.5x raw | ${ratio.toFixed(2)}x | ${verdict(ratio >= 0.5, short)} |`;
      }),
  ];
  const perArticle = (bytes: number, n: number): string => `${Math.round(bytes / n).toLocaleString("en")} B per article`;
  return [
    `## Side by side: embedded, scaled and raw OpenSearch (${r.corpusArticles.toLocaleString("en")} articles)`,
    "",
    `Machine: ${machine()}; OpenSearch ${r.osVersion} (Lucene ${r.luceneVersion}) on Java ${r.jdk.major}, heap ${o.heap}, the bench's own node (\`shared/opensearch/opensearch-up.sh\`, base \`bench/.data/opensearch-scaled\`). Load average before / after (1, 5, 15 min): ${r.loadBefore} → ${r.loadAfter}.${busy ? " **The machine was busy with other work during this run** (load average at or above its 2 cores before it started): every column shared the cores with that work, so absolute figures are high and only ratios within a row (measured call by call, in turn) carry over." : ""}`,
    `Command: \`${command}\`.`,
    "",
    `Corpus: ${r.corpusArticles.toLocaleString("en")} articles from the generator above (${o.months} months from 2024-01, seed 1). Embedded: ingested with story clustering${r.embeddedIngestSeconds === undefined ? " (kept from an earlier run, --reuse)" : ` in ${r.embeddedIngestSeconds.toFixed(0)} s`}, ${r.embeddedPartitions} monthly indexes, ${mib(r.embeddedIndexBytes)} (${perArticle(r.embeddedIndexBytes, r.corpusArticles)}, stories and control store apart). Scaled: the same pipeline with \`NEWSINDEX_INDEX=opensearch\`${r.scaled.ingest ? ` at ${r.scaled.ingest.perSecond.toLocaleString("en")} records/s (${r.scaled.ingest.seconds.toFixed(0)} s, parse, derive and cluster included, no embedding)` : " (kept from an earlier run, --reuse)"}, ${r.scaled.articles.toLocaleString("en")} articles in monthly indices of 1 shard, no replica, sorted on disk by published_at then id (desc), merged to one segment each before timing (${r.scaled.mergeSeconds.toFixed(0)} s), ${mib(r.scaled.storeBytes)} (${perArticle(r.scaled.storeBytes, r.scaled.articles)}, no vectors); control store PostgreSQL, a schema of its own.`,
    "",
    `Bulk ingest into the node, the write alone (\`bench/opensearch/bulk-rate.ts\`: ${r.bulk.articles.toLocaleString("en")} copies of the bundled sample's real articles into 3 new monthly indices, \`OpenSearchIndex.write\` in ingest's batches of 2,000 inside \`bulkLoad\`; parsing, deriving, clustering and embedding excluded; after the scaled index was loaded, before anything is timed): ${Math.round(r.bulk.perSecond).toLocaleString("en")} records/s (${r.bulk.seconds.toFixed(1)} s; load average after ${r.bulk.loadAfter}).`,
    "",
    `Warm-up: the whole mix on all three columns in windows of ${WARM_WINDOW_SECONDS} s until two successive windows' raw p50 differed by less than ${WARM_STABLE * 100}% (at most ${WARM_MAX_SECONDS} s): ${r.warmUp.seconds.toFixed(0)} s, raw p50 per window ${r.warmUp.windows.map((w) => ms(w)).join(", ")} ms${r.warmUp.stable ? "" : " (**not stable within the bound**)"}.`,
    "",
    `Latency in ms, p50 / p99: one keep-alive client per column (undici), calls in turn, the first of each round moving on by one (embedded, scaled, raw, then scaled, raw, embedded, ...), ${o.seconds} s per row after 1 s of the row; bodies read in full. Raw: the requests the scaled API sent the node for that call (captured through a recording proxy; the month catalog read, cached for a second, left out), replayed one after another; "requests" counts them.`,
    "",
    "| row | API path | requests | embedded p50 / p99 | scaled p50 / p99 | raw p50 / p99 | scaled / raw, p50 | embedded / raw, p50 |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    `Throughput at 10 connections (autocannon, ${THROUGHPUT_ROUNDS} rounds of ${Math.max(2, Math.round(o.seconds / THROUGHPUT_ROUNDS))} s taken in turn: embedded, scaled, raw, embedded, ...; the mean of the rounds; raw in API calls per second):`,
    "",
    "| workload | API path | embedded req/s | scaled req/s | raw calls/s | scaled / raw | embedded / raw |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...throughput,
    "",
    "Agreement (embedded / scaled, first answer of each row):",
    "",
    ...r.rows.map((row) => `- ${row.row.name}: ${row.agreement}.`),
    "",
    "What the scaled API sent the node (first request of each row; the rest in the JSON beside the run):",
    "",
    ...r.rows.map(
      (row) =>
        `- ${row.row.name}: \`${row.requests[0]?.method} ${row.requests[0]?.path}\` \`${(row.requests[0]?.body ?? "").slice(0, 600)}\``,
    ),
    "",
    `### Targets (side by side, ${r.corpusArticles.toLocaleString("en")} articles)`,
    "",
    "| target | measured | |",
    "|---|---:|---|",
    ...targets,
    "",
  ].join("\n");
}
