// The soak: the API on a corpus generated from the real sample (default
// 100,000 articles over 2 months), driven for a long time (default 30 minutes)
// at a fixed rate of mixed reads, twice the expected load, sampling every
// minute the server's memory and event-loop delay and the requests' latency
// and errors. Writes a table and a verdict (memory flat? p99 stable?).
//
//   npm run soak [-- --minutes 30 --articles 100000 --rate N --out bench/SOAK-RESULTS.md]
//
// Expected load: a quarter of what the server answers of this same mix when
// saturated (8 connections, closed loop), measured on this machine before the
// soak starts (--calibrate-seconds); capacity planning keeps a server at a
// quarter of its capacity so it rides out bursts. The soak runs at twice that:
// half the measured capacity. --rate N sets the rate instead.
// Not part of `npm test`. Data lives under bench/.data/ (gitignored).

import { execFile } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";
import { Pool } from "undici";
import { generateCorpus } from "./corpus/generate-corpus.js";
import { startChild } from "./scale/child-server.js";
import { machine, summarise } from "./scale/measure.js";
import { OpenLoop, type WindowStats } from "./soak/open-loop.js";
import type { ServerSample } from "./soak/soak-server.js";
import { dealer, soakMix, type MixEntry } from "./soak/soak-mix.js";

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: "30" },
    articles: { type: "string", default: "100000" },
    months: { type: "string", default: "2" },
    rate: { type: "string" },
    "calibrate-seconds": { type: "string", default: "20" },
    out: { type: "string", default: new URL("./SOAK-RESULTS.md", import.meta.url).pathname },
  },
});
const OUT = args.out ?? new URL("./SOAK-RESULTS.md", import.meta.url).pathname;
const MINUTES = Number(args.minutes);
const ARTICLES = Number(args.articles);
const MONTHS = Number(args.months);
const DATA = new URL(".data/", import.meta.url).pathname;
const CONNECTIONS = 32;
const MAX_OUTSTANDING = 2_000;

interface MinuteRow {
  minute: number;
  window: WindowStats;
  server: ServerSample;
  load1: number;
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

async function prepareIndex(): Promise<{ dataDir: string; articles: number }> {
  log(`generating a corpus of ${ARTICLES} articles over ${MONTHS} months ...`);
  const corpusDir = join(DATA, `soak-corpus-${ARTICLES}`);
  const corpus = await generateCorpus({ articles: ARTICLES, firstMonth: "2024-01", months: MONTHS, outDir: corpusDir, seed: 18 });
  const dataDir = join(DATA, `soak-index-${corpus.key}`);
  const done = join(dataDir, "SOAK-INGESTED");
  if (!existsSync(done)) {
    log(`ingesting into ${dataDir} ...`);
    const script = new URL("./scale/ingest-pass.ts", import.meta.url).pathname;
    await promisify(execFile)(process.execPath, ["--import", "tsx", script, "clustered", corpusDir, dataDir], {
      maxBuffer: 1 << 20,
    });
    writeFileSync(done, corpus.key);
  }
  return { dataDir, articles: corpus.articles };
}

/** Article and story ids spread over the corpus: pages of a browse at several depths. */
async function sampleIds(origin: string, headers: Record<string, string>): Promise<{ ids: string[]; stories: string[] }> {
  const ids: string[] = [];
  const stories = new Set<string>();
  for (let k = 0; k < 10; k++) {
    const response = await fetch(`${origin}/search?limit=100&offset=${k * 900}&view=compact`, { headers });
    const body = (await response.json()) as { results: Array<{ id: string; story_id: string | null }> };
    for (const hit of body.results) {
      ids.push(hit.id);
      if (hit.story_id) stories.add(hit.story_id);
    }
  }
  return { ids, stories: [...stories] };
}

/** Answers per second of the mix with `connections` clients each sending its next request once answered. */
async function capacity(
  origin: string,
  headers: Record<string, string>,
  next: (i: number) => MixEntry,
  seconds: number,
): Promise<number> {
  const pool = new Pool(origin, { connections: 8, pipelining: 1 });
  let i = 0;
  let answered = 0;
  const end = performance.now() + seconds * 1000;
  const client = async (): Promise<void> => {
    while (performance.now() < end) {
      const n = i++;
      const response = await pool.request({ method: "GET", path: next(n).path(n), headers });
      await response.body.text();
      answered++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: 8 }, client));
  const rate = answered / ((performance.now() - started) / 1000);
  await pool.close();
  return rate;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

/** Least-squares slope of `values` per step. */
function slope(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((s, v) => s + v, 0) / n;
  let num = 0;
  let den = 0;
  values.forEach((v, x) => {
    num += (x - meanX) * (v - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}

interface ReportContext {
  command: string;
  when: string;
  load: string;
  corpus: string;
  rate: string;
  mix: string;
}

function report(rows: readonly MinuteRow[], context: ReportContext): string {
  // The first minute warms caches and the JIT; the verdict judges the rest.
  const steady = rows.slice(1);
  const early = steady.slice(0, 5);
  const late = steady.slice(-5);
  const rss = (r: MinuteRow) => r.server.rssMiB;
  const heap = (r: MinuteRow) => r.server.heapUsedMiB;
  const p99 = (r: MinuteRow) => summarise(r.window.latencies).p99;
  const rssGrowth = median(late.map(rss)) - median(early.map(rss));
  const heapGrowth = median(late.map(heap)) - median(early.map(heap));
  const heapSlope = slope(steady.map(heap)) * 60;
  const p99s = steady.map(p99);
  const p99Median = median(p99s);
  const p99Outliers = p99s.filter((v) => v > 2 * p99Median).length;
  const errors = rows.reduce((s, r) => s + r.window.errors, 0);
  const requests = rows.reduce((s, r) => s + r.window.requests, 0);
  const memoryFlat = rssGrowth <= Math.max(20, 0.1 * median(early.map(rss))) && heapSlope < 30;
  const p99Stable = p99Outliers <= Math.ceil(steady.length / 10) && median(late.map(p99)) <= 1.5 * median(early.map(p99));

  const lines: string[] = [];
  lines.push("# Soak results", "");
  lines.push(`Command: \`${context.command}\`. ${context.when}.`, "");
  lines.push(`Machine: ${machine()}. ${context.load}`, "");
  lines.push(context.corpus, "", context.rate, "", context.mix, "");
  lines.push("## Verdict", "");
  lines.push(
    `- **Memory ${memoryFlat ? "flat" : "NOT flat"}.** RSS median of the last 5 minutes against minutes 2-6: ${rssGrowth >= 0 ? "+" : ""}${round(rssGrowth)} MiB; ` +
      `heap used ${heapGrowth >= 0 ? "+" : ""}${round(heapGrowth)} MiB; heap trend over minutes 2-${rows.length}: ${round(heapSlope)} MiB/hour ` +
      "(flat: RSS within 10% or 20 MiB, heap trend under 30 MiB/hour).",
  );
  lines.push(
    `- **p99 ${p99Stable ? "stable" : "NOT stable"}.** Median per-minute p99 ${round(p99Median)} ms; ${p99Outliers} of ${steady.length} minutes above twice that; ` +
      `last 5 minutes' median p99 ${round(median(late.map(p99)))} ms against ${round(median(early.map(p99)))} ms in minutes 2-6 ` +
      "(stable: at most one minute in ten above twice the median, and the last minutes within 1.5x of the first).",
  );
  lines.push(`- **Errors:** ${errors} of ${requests} requests.`, "");
  lines.push("## Per minute", "");
  lines.push(
    "Latency from the moment each request was due to the end of its body, ms. Event-loop delay: `monitorEventLoopDelay` in the server process, over the minute. Load: the machine's 1-minute load average at the end of the minute.",
    "",
  );
  lines.push(
    "| minute | requests | errors | p50 | p99 | max | RSS MiB | heap used MiB | heap total MiB | loop delay p99 / max ms | load |",
  );
  lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const l = summarise(r.window.latencies);
    const max = r.window.latencies.reduce((m, v) => Math.max(m, v), 0);
    const kinds = Object.entries(r.window.errorKinds)
      .map(([k, n]) => `${n} ${k}`)
      .join(", ");
    lines.push(
      `| ${r.minute} | ${r.window.requests} | ${r.window.errors}${kinds ? ` (${kinds})` : ""} | ${round(l.p50)} | ${round(l.p99)} | ${round(max)} | ` +
        `${round(r.server.rssMiB)} | ${round(r.server.heapUsedMiB)} | ${round(r.server.heapTotalMiB)} | ${r.server.loopDelay.p99} / ${r.server.loopDelay.max} | ${round(r.load1, 2)} |`,
    );
  }
  lines.push("", "## Per request kind, whole run", "");
  lines.push("| kind | answered | p50 ms | p99 ms |", "|---|---:|---:|---:|");
  const byKind = new Map<string, number[]>();
  for (const r of rows) for (const [kind, list] of r.window.byKind) byKind.set(kind, [...(byKind.get(kind) ?? []), ...list]);
  for (const [kind, list] of byKind) {
    const l = summarise(list);
    lines.push(`| ${kind} | ${list.length} | ${round(l.p50)} | ${round(l.p99)} |`);
  }
  return `${lines.join("\n")}\n`;
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const { dataDir, articles } = await prepareIndex();
  const server = await startChild<{ port: number; key: string }>("../soak/soak-server.ts", [dataDir]);
  try {
    const origin = `http://127.0.0.1:${server.info.port}`;
    const headers = { "x-api-key": server.info.key };
    const { ids, stories } = await sampleIds(origin, headers);
    const mix = soakMix(ids, stories);
    const next = dealer(mix);

    let rate: number;
    let rateLine: string;
    if (args.rate !== undefined) {
      rate = Number(args.rate);
      rateLine = `Rate: ${rate} requests/s, set with --rate.`;
    } else {
      const seconds = Number(args["calibrate-seconds"]);
      log(`measuring capacity (${seconds} s, 8 connections) ...`);
      const measured = await capacity(origin, headers, next, seconds);
      const expected = measured / 4;
      rate = Math.max(1, Math.round(2 * expected));
      rateLine =
        `Rate: **${rate} requests/s**, a fixed open-loop rate. Expected load is defined as a quarter of the capacity measured ` +
        `just before the soak (this mix, 8 connections, closed loop, ${seconds} s: ${round(measured)} answers/s), so ` +
        `${round(expected)} requests/s; the soak runs at twice that, half the measured capacity.`;
    }
    log(`soaking at ${rate} requests/s for ${MINUTES} minutes ...`);

    const loop = new OpenLoop({ origin, headers, rate, next, maxOutstanding: MAX_OUTSTANDING, connections: CONNECTIONS });
    const rows: MinuteRow[] = [];
    const loads: number[] = [];
    loop.start();
    for (let minute = 1; minute <= MINUTES; minute++) {
      await new Promise((r) => setTimeout(r, 60_000));
      const window = loop.takeWindow();
      const sample = JSON.parse(await server.ask("sample")) as ServerSample;
      const load1 = loadavg()[0] ?? 0;
      loads.push(load1);
      rows.push({ minute, window, server: sample, load1 });
      const l = summarise(window.latencies);
      log(
        `minute ${minute}: ${window.requests} requests, ${window.errors} errors, p99 ${round(l.p99)} ms, ` +
          `RSS ${round(sample.rssMiB)} MiB, heap ${round(sample.heapUsedMiB)} MiB, loop p99 ${sample.loopDelay.p99} ms, load ${round(load1, 2)}`,
      );
    }
    await loop.stop();

    const shares = mix.map((m) => `${m.kind} ${m.weight}%`).join(", ");
    const loadAfter = loadavg();
    const text = report(rows, {
      command: `npm run soak -- --minutes ${MINUTES} --articles ${ARTICLES}${args.rate ? ` --rate ${args.rate}` : ""}`,
      when: `Finished ${new Date().toISOString().slice(0, 16)} UTC, after ${MINUTES} minutes`,
      load:
        `The machine is shared with other work: load average (1, 5, 15 min) before ${loadBefore.map((l) => round(l, 2)).join(" / ")}, ` +
        `after ${loadAfter.map((l) => round(l, 2)).join(" / ")}; mean 1-minute load during the soak ${round(loads.reduce((s, v) => s + v, 0) / Math.max(1, loads.length), 2)} ` +
        "(the server and the load generator account for about 1 of it).",
      corpus: `Corpus: ${articles} articles generated from the real GDELT sample (bench/corpus/generate-corpus.ts), ingested with story clustering; the server in its own process (bench/soak/soak-server.ts), archive key, every call through the whole path (key, credit reservation, charge).`,
      rate: rateLine,
      mix: `Mix (shares of requests): ${shares}; words, filters and ids vary from request to request (bench/soak/soak-mix.ts). ${CONNECTIONS} keep-alive connections; a request due while ${MAX_OUTSTANDING} are unanswered is counted as an error (overload).`,
    });
    writeFileSync(OUT, text);
    log(`wrote ${OUT}`);
  } finally {
    await server.stop();
  }
}

await main();
