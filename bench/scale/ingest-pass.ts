// One ingest pass of the scale benchmark, in its own process so the two passes
// (with and without story clustering) start from the same cold heap. Ingests
// the corpus's files into a fresh DATA_DIR and prints one JSON line of figures.
//   node --import tsx bench/scale/ingest-pass.ts clustered|baseline CORPUS_DIR DATA_DIR
// clustered: the product path, the ingest service exactly as the container wires it.
// baseline: the same pipeline built without its optional story clustering.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { loadavg } from "node:os";
import Database from "better-sqlite3";
import { GkgArticleSource } from "../../src/adapters/gdelt/gkg-source.js";
import { SqliteIndexBackend } from "../../src/adapters/sqlite/sqlite-index-backend.js";
import { loadConfig } from "../../src/config/config.js";
import { createContainer } from "../../src/container.js";
import { IngestService } from "../../src/usecases/ingest/ingest-service.js";
import { systemClock } from "../../src/shared/clock.js";

export type PassKind = "clustered" | "baseline";

export interface PassFigures {
  kind: PassKind;
  records: number;
  inserted: number;
  seconds: number;
  perSecond: number;
  /** CPU time of the whole process (every thread), per record: less sensitive than wall time to other load on the machine. */
  cpuMicrosPerRecord: number;
  /**
   * CPU per record of each OS thread of the process that took at least 1% of it, most first (Linux; empty elsewhere):
   * the ingest (main) thread, the writer and clustering threads, libuv's pool (gunzip), V8's GC helpers.
   */
  threads: Array<{ thread: string; cpuMicrosPerRecord: number }>;
  /** Mean 1-minute load average sampled during the pass. */
  loadDuring: number;
  /** Peak resident memory of the process (every thread, and the index pages SQLite maps), MiB. */
  maxRssMiB: number;
  stories?: StoryShape;
}

/** What the clustering made of the corpus. */
export interface StoryShape {
  stories: number;
  /** Stories of two articles or more, and the articles in them. */
  multi: number;
  inMulti: number;
  largest: number;
  /** Longest time between the first and last article of one story, hours. */
  longestSpanHours: number;
  /** Share of articles in a story spanning more than a week. */
  inWeekPlus: number;
}

async function main(): Promise<void> {
  const [kind, corpusDir, dataDir] = process.argv.slice(2);
  if ((kind !== "clustered" && kind !== "baseline") || !corpusDir || !dataDir)
    throw new Error("usage: ingest-pass.ts clustered|baseline CORPUS_DIR DATA_DIR");
  const files = (JSON.parse(readFileSync(join(corpusDir, "COMPLETE.json"), "utf8")) as { files: string[] }).files;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  // The index engine from the environment (the side by side ingests the scaled shape with NEWSINDEX_INDEX=opensearch);
  // nothing else of it, so the embedded passes run as they always have.
  const engine = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name === "NEWSINDEX_INDEX" || name.startsWith("NEWSINDEX_OPENSEARCH_")),
  );
  const config = loadConfig(engine, { dataDir, logLevel: "silent" });

  let service: IngestService;
  let close: () => Promise<void>;
  if (kind === "clustered") {
    const container = createContainer(config);
    service = await container.ingestService();
    close = () => container.close();
  } else {
    const index = new SqliteIndexBackend(dataDir);
    service = new IngestService(await GkgArticleSource.create(), index, config.ingestBatchSize, systemClock);
    close = () => index.close();
  }

  const loads: number[] = [];
  const sampler = setInterval(() => loads.push(loadavg()[0] ?? 0), 5000);
  // Threads that end with the ingest (clustering, parsing) leave /proc: each thread's CPU is sampled as it runs.
  const perThread = new Map<string, number>();
  const threadSampler = setInterval(() => sampleThreads(perThread), 500);
  const cpuBefore = process.cpuUsage();
  const summary = await service.ingest(files);
  sampleThreads(perThread);
  clearInterval(threadSampler);
  const threads = threadCpu(perThread, summary.records);
  await close();
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);

  const figures: PassFigures = {
    kind,
    records: summary.records,
    inserted: summary.inserted,
    seconds: summary.seconds,
    perSecond: Math.round(summary.records / summary.seconds),
    cpuMicrosPerRecord: Math.round((cpu.user + cpu.system) / summary.records),
    loadDuring: loads.length === 0 ? (loadavg()[0] ?? 0) : loads.reduce((s, v) => s + v, 0) / loads.length,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    threads,
    ...(kind === "clustered" ? { stories: storyShape(join(dataDir, "stories.db")) } : {}),
  };
  console.log(JSON.stringify(figures));
}

/** Each thread's user + system CPU so far from /proc (clock ticks of 10 ms), µs, into `into` (Linux; else nothing). */
function sampleThreads(into: Map<string, number>): void {
  const dir = `/proc/${process.pid}/task`;
  if (!existsSync(dir)) return;
  for (const tid of readdirSync(dir)) {
    try {
      const stat = readFileSync(join(dir, tid, "stat"), "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const name = tid === String(process.pid) ? "main (ingest)" : `thread ${tid}`;
      into.set(name, Math.max(into.get(name) ?? 0, (Number(fields[11]) + Number(fields[12])) * 10_000));
    } catch {
      // The thread ended between the listing and the read: its last sample stands.
    }
  }
}

/** The threads that took at least 1% of the process's CPU, most first, per record. */
function threadCpu(perThread: Map<string, number>, records: number): PassFigures["threads"] {
  const total = [...perThread.values()].reduce((sum, v) => sum + v, 0);
  return [...perThread]
    .filter(([, micros]) => micros >= total * 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([thread, micros]) => ({ thread, cpuMicrosPerRecord: Math.round(micros / Math.max(1, records)) }));
}

function storyShape(path: string): StoryShape {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare("SELECT count(*) AS n, max(time_ms) - min(time_ms) AS span FROM story_articles GROUP BY story")
      .all() as Array<{ n: number; span: number }>;
    const week = 7 * 86_400_000;
    const shape: StoryShape = { stories: rows.length, multi: 0, inMulti: 0, largest: 0, longestSpanHours: 0, inWeekPlus: 0 };
    let articles = 0;
    for (const { n, span } of rows) {
      articles += n;
      if (n > 1) {
        shape.multi++;
        shape.inMulti += n;
      }
      shape.largest = Math.max(shape.largest, n);
      shape.longestSpanHours = Math.max(shape.longestSpanHours, Math.round(span / 3_600_000));
      if (span > week) shape.inWeekPlus += n;
    }
    shape.inWeekPlus = articles === 0 ? 0 : shape.inWeekPlus / articles;
    return shape;
  } finally {
    db.close();
  }
}

await main();
