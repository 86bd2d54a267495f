// The export benchmark: GET /export of every article of an
// ingested index over HTTP on loopback, timed from the request to the
// manifest, with the server process's RSS sampled every 250 ms from start
// (just before the request) to end (the manifest received): the target reads
// "RSS flat (± 50 MB) from start to end", so every sample is set against the
// first. The client (export-client.ts: counts lines and discards them) runs in a
// process of its own, as a real one does.
//
//   npm run bench:export -- --data-dir DIR            an index already ingested (DIR/index)
//   npm run bench:export -- --articles 1000000        generate and ingest a corpus (bench/.data/, reused)
//   [--query "language=eng"] [--out bench/RESULTS.md] [--trace FILE: every sample, as JSON]
//   [--warm "q=police": a search answered first, as by a server that has been serving for a while]
//
// The server starts its read threads before it listens, as `newsindex serve` does.
//
// Not part of `npm test`. Wrap in `flock /tmp/newsindex-bench.lock` on a shared machine.

import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config/config.js";
import { createContainer } from "../src/container.js";
import { buildApp } from "../src/http/app.js";
import { closeApp } from "../src/http/close-app.js";
import { DOCS_DIR } from "../src/serve.js";
import { OPERATIONS } from "../src/app/registry.js";
import { createLogger } from "../src/shared/logger.js";
import { generateCorpus } from "./corpus/generate-corpus.js";
import { loadAverage, machine } from "./scale/measure.js";
import { writeSection } from "./scale/results-file.js";
import { ingestPass } from "./scale/run-ingest.js";

const { values: args } = parseArgs({
  options: {
    "data-dir": { type: "string" },
    articles: { type: "string", default: "1000000" },
    months: { type: "string", default: "6" },
    query: { type: "string", default: "" },
    out: { type: "string", default: new URL("./RESULTS.md", import.meta.url).pathname },
    trace: { type: "string" },
    // A search answered before the export, as by a server that has been serving for a while: e.g. "q=police".
    warm: { type: "string" },
  },
});
const DATA = new URL(".data/", import.meta.url).pathname;
const MB = 2 ** 20;

const dataDir = args["data-dir"] ?? (await ingested(Number(args.articles), Number(args.months)));
const container = createContainer(loadConfig({}, { dataDir, logLevel: "silent" }));
const key = (await container.accounts.issueKey(`export-bench-${randomUUID()}`, "archive")).key;
const app = await buildApp({ operations: OPERATIONS, deps: container, logger: createLogger("silent"), docsDir: DOCS_DIR });
// As `newsindex serve` does: the read threads are up before the server takes requests.
await container.startReads();
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

if (args.warm !== undefined) await searchTotal(args.warm);
const total = await searchTotal(args.query);
console.error(`exporting ${total} articles (${args.query || "no filter"}) from ${dataDir} ...`);
const run = await exportAll(args.query);
await closeApp(app, 1000);
await container.close();

const seconds = run.ms / 1000;
const perSecond = Math.round(run.count / seconds);
const mb = (bytes: number): number => Math.round(bytes / MB);
const range = (values: number[]): string => `${mb(Math.min(...values))} / ${mb(Math.max(...values))} MB`;
/** The farthest a sample strays from the first one, in MB (up, down). */
const fromFirst = (values: number[]): string => {
  const first = values[0] ?? 0;
  return `+${mb(Math.max(...values) - first)} / −${mb(first - Math.min(...values))}`;
};
const pick = (key: keyof Memory): number[] => run.samples.map((m) => m[key]);
const [rss, anon, file] = [pick("rss"), pick("anon"), pick("file")];
const flat = (values: number[]): boolean => values.every((v) => Math.abs(v - (values[0] ?? 0)) <= 50 * MB);
const every2s = (values: number[]): string =>
  values
    .filter((_, i) => i % 8 === 0)
    .map(mb)
    .join(", ");
if (args.trace !== undefined) writeFileSync(args.trace, JSON.stringify(run.samples));
const report = [
  `## Export (GET /export over HTTP)`,
  "",
  `Measured ${new Date().toISOString().slice(0, 16)}Z on ${machine()}; load average before the run ${run.loadBefore}, after ${loadAverage()} (the machine is shared).`,
  `Index: ${dataDir.replace(/.*\/bench\//, "bench/")}; query: \`/export?${args.query}\`. Command: \`npm run bench:export -- ${process.argv.slice(2).join(" ")}\`.`,
  `Memory of the server's process sampled every 250 ms from just before the request to the manifest (${run.samples.length} samples), each set against the first.`,
  "",
  "| articles sent | /search total | seconds | articles/s | MB sent | time to first line | RSS first / min / max | RSS from the first (MB) | private (RssAnon) first / min / max | private from the first (MB) | index pages mapped (RssFile) first / min / max |",
  "|---|---|---|---|---|---|---|---|---|---|---|",
  `| ${run.count.toLocaleString("en")} | ${total.toLocaleString("en")} | ${seconds.toFixed(1)} | ${perSecond.toLocaleString("en")} | ${mb(run.bytes)} | ${run.firstLineMs} ms | ${mb(rss[0] ?? 0)} / ${range(rss)} | ${fromFirst(rss)} | ${mb(anon[0] ?? 0)} / ${range(anon)} | ${fromFirst(anon)} | ${mb(file[0] ?? 0)} / ${range(file)} |`,
  "",
  `RSS every 2 s (MB): ${every2s(rss)}.`,
  `Private memory every 2 s (MB): ${every2s(anon)}.`,
  `Within ± 50 MB of the first sample throughout: RSS ${flat(rss) ? "yes" : "no"}, private memory ${flat(anon) ? "yes" : "no"}.`,
  `CPU: ${Math.round(run.cpuMicros / run.count)} µs per article over the server's threads (${(run.cpuMicros / 1000 / run.ms).toFixed(2)} cores on average); the server's main thread (stream, HTTP) busy ${Math.round(run.mainBusy * 100)}% of the time.`,
  `Manifest: count ${run.manifest.count}, total ${run.manifest.total}, credits_charged ${run.manifest.credits_charged}, coverage ${run.manifest.coverage}.`,
].join("\n");
console.log(report);
writeSection(args.out, "export", report);
process.exit(run.manifest.count === total ? 0 : 1);

async function searchTotal(query: string): Promise<number> {
  const response = await fetch(`${base}/search?${query}&limit=1`, { headers: { "x-api-key": key } });
  return ((await response.json()) as { total: number }).total;
}

interface Run {
  count: number;
  bytes: number;
  ms: number;
  firstLineMs: number;
  /** From just before the request to the manifest, every 250 ms. */
  samples: Memory[];
  loadBefore: string;
  /** CPU of the whole process (every thread), µs. */
  cpuMicros: number;
  /** Share of the time the server's main thread was busy (the stream and HTTP). */
  mainBusy: number;
  manifest: { count: number; total: number; credits_charged: number; coverage: string };
}

/**
 * Streams the export to a client in a process of its own (export-client.ts), which counts the lines and discards
 * them; this process's memory sampled from just before the request to the manifest, and its CPU (the server's,
 * every thread).
 */
function exportAll(query: string): Promise<Run> {
  const loadBefore = loadAverage();
  const cpuBefore = process.cpuUsage();
  const loopBefore = performance.eventLoopUtilization();
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const samples: Memory[] = [memory(started)];
    const sampler = setInterval(() => samples.push(memory(started)), 250);
    const script = new URL("./export-client.ts", import.meta.url).pathname;
    const client = spawn(process.execPath, ["--import", "tsx", script, `${base}/export?${query}`, key], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    client.stdout.setEncoding("utf8");
    client.stdout.on("data", (text: string) => (output += text));
    client.on("error", reject);
    client.on("exit", (code) => {
      clearInterval(sampler);
      samples.push(memory(started));
      const cpu = process.cpuUsage(cpuBefore);
      const mainBusy = performance.eventLoopUtilization(loopBefore).utilization;
      const last = output.trimEnd().split("\n").at(-1) ?? "";
      if (code !== 0 || !last.startsWith("{")) return reject(new Error(`the client exited with ${code}: ${output.slice(-300)}`));
      const figures = JSON.parse(last) as Pick<Run, "count" | "bytes" | "ms" | "firstLineMs" | "manifest">;
      resolve({ ...figures, samples, loadBefore, cpuMicros: cpu.user + cpu.system, mainBusy });
    });
  });
}

interface Memory {
  /** Since the first sample, ms. */
  ms: number;
  rss: number;
  /** Private memory: the heap, SQLite's page caches, buffers. */
  anon: number;
  /** Pages of the index files SQLite maps (mmap_size): clean, shared with the page cache, given back under pressure. */
  file: number;
  /** The main thread's ArrayBuffers (the lines' bytes it holds until collected) and JavaScript heap. */
  arrayBuffers: number;
  heapUsed: number;
}

/** RSS, and its private and file-backed parts (Linux /proc/self/status; zero elsewhere). */
function memory(since: number): Memory {
  const status = existsSync("/proc/self/status") ? readFileSync("/proc/self/status", "utf8") : "";
  const kib = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
  const usage = process.memoryUsage();
  return {
    ms: Math.round(performance.now() - since),
    rss: usage.rss,
    anon: kib("RssAnon"),
    file: kib("RssFile"),
    arrayBuffers: usage.arrayBuffers,
    heapUsed: usage.heapUsed,
  };
}

/** A generated corpus of `articles`, ingested once with the product pipeline; reused by later runs. */
async function ingested(articles: number, months: number): Promise<string> {
  const dir = join(DATA, `export-${articles}`);
  if (existsSync(join(dir, "index"))) return dir;
  // The scale benchmarks' shared corpus (same generator, options and seed), generated once for all of them.
  const corpusDir = join(DATA, `corpus-${articles}`);
  await generateCorpus({ articles, firstMonth: "2024-01", months, outDir: corpusDir, seed: 1 });
  await ingestPass("clustered", corpusDir, dir);
  return dir;
}
