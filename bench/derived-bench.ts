// Derived fields at scale (issue 13): the scale bench's corpus (generated from
// the real sample, bench/corpus/) ingested through the product path with
// signals-v1, events-v1, cities and amounts derived and written, then each new
// filter timed through the search service in-process (validation, the
// threshold pass, candidate checks, the merge; no HTTP), one call at a time.
// Rewrites its own section of bench/RESULTS.md.
//
//   flock /tmp/newsindex-bench.lock node --import tsx bench/derived-bench.ts [--articles 1000000 --months 6 --seconds 5 --reuse]

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SqliteIndexBackend } from "../src/adapters/sqlite/sqlite-index-backend.js";
import { PLANS } from "../src/domain/plans.js";
import { searchArticles } from "../src/usecases/search/search-articles.js";
import { toSearchRequest, type ListParams } from "../src/app/requests/search-params.js";
import { generateCorpus } from "./corpus/generate-corpus.js";
import { loadAverage, machine, timeCalls, type Latency } from "./scale/measure.js";
import { benchOptions } from "./scale/bench-options.js";
import { writeSection } from "./scale/results-file.js";
import { ingestPass } from "./scale/run-ingest.js";
import type { PassFigures } from "./scale/ingest-pass.js";

const args = benchOptions();
const { articles: ARTICLES, months: MONTHS, seconds: SECONDS, dataDir: DATA } = args;
const TARGET_MS = 50;
const LOAD_BEFORE = loadAverage();

/** The issue's rows: each new filter on a newest-first browse of the whole corpus, 10 results. */
const QUERIES: ReadonlyArray<{ name: string; params: Record<string, string> }> = [
  { name: "near, 50 km (Washington, DC)", params: { near: "38.8951,-77.0364", radius_km: "50" } },
  { name: "bbox over a country (the Netherlands)", params: { bbox: "50.75,3.35,53.55,7.23" } },
  { name: "event_type", params: { event_type: "labor_strike" } },
  { name: "signal_min", params: { signal: "finance", signal_min: "20" } },
  { name: "signal_percentile_min", params: { signal: "finance", signal_percentile_min: "95" } },
  { name: "amount_min", params: { amount_min: "1000000" } },
  { name: "q + near, 50 km", params: { q: "police", near: "38.8951,-77.0364", radius_km: "50" } },
  { name: "q + signal_percentile_min", params: { q: "police", signal: "conflict", signal_percentile_min: "90" } },
];

interface Row {
  name: string;
  path: string;
  total: number;
  relation: string;
  coverage: string;
  latency: Latency;
}

async function main(): Promise<void> {
  const corpusDir = join(DATA, `corpus-${ARTICLES}-${MONTHS}`);
  const corpus = await generateCorpus({ articles: ARTICLES, firstMonth: "2024-01", months: MONTHS, outDir: corpusDir, seed: 1 });
  const dataDir = join(DATA, `derived-${ARTICLES}-${MONTHS}`);
  // The ingest's figures are kept beside the index, so a --reuse run reports the pass that built it.
  const figures = join(dataDir, "ingest.json");
  let ingest: PassFigures | undefined;
  if (args.reuse && existsSync(join(dataDir, "index"))) {
    if (existsSync(figures)) ingest = JSON.parse(readFileSync(figures, "utf8")) as PassFigures;
  } else {
    ingest = await ingestPass("clustered", corpusDir, dataDir);
    writeFileSync(figures, JSON.stringify(ingest));
  }

  const index = new SqliteIndexBackend(dataDir, { writerThread: false });
  const rows: Row[] = [];
  report(corpus.articles, ingest, rows, false);
  try {
    for (const { name, params } of QUERIES) {
      const request = toSearchRequest(params as ListParams);
      const run = () => searchArticles(index, request, PLANS.archive, Date.now());
      const sample = await run();
      const latency = await timeCalls(run, SECONDS);
      rows.push({
        name,
        path: `/search?${new URLSearchParams(params).toString()}`,
        total: sample.body.total,
        relation: sample.body.total_relation,
        coverage: sample.body.coverage,
        latency,
      });
      console.error(`${name}: p50 ${latency.p50.toFixed(1)} ms, total ${sample.body.total}`);
      report(corpus.articles, ingest, rows, false);
    }
  } finally {
    await index.close();
  }

  report(corpus.articles, ingest, rows, true);
  console.error(`wrote the derived-fields section of ${args.out}`);
}

/** Writes the section with what is measured so far: a run cut short still leaves its figures. */
function report(articles: number, ingest: PassFigures | undefined, rows: readonly Row[], done: boolean): void {
  const lines = [
    "## Derived fields at scale (signals-v1, events-v1, geographic and amount filters)",
    "",
    `${articles.toLocaleString("en-US")} articles over ${MONTHS} months generated from the real sample (bench/corpus/); machine: ${machine()}; load average (1, 5, 15 min) before / ${done ? "after" : "now in"} this run: ${LOAD_BEFORE} → ${loadAverage()}.`,
    `Command: \`flock /tmp/newsindex-bench.lock node --import tsx bench/derived-bench.ts --articles ${ARTICLES} --months ${MONTHS} --seconds ${SECONDS}\`.`,
    "",
  ];
  if (ingest) {
    const verdict = ingest.perSecond >= 5000 ? "met" : `missed by ${(5000 / ingest.perSecond).toFixed(2)}x`;
    // The pass is CPU-bound: records/s times CPU per record is the cores it got; two idle cores bound it at 2 s of CPU per second.
    const cores = (ingest.perSecond * ingest.cpuMicrosPerRecord) / 1e6;
    const ceiling = Math.round(2e6 / ingest.cpuMicrosPerRecord);
    lines.push(
      `Ingest with the derived fields (the product path: parse, derive signals, event classes, cities and amounts, cluster, index): **${ingest.perSecond.toLocaleString("en-US")} records/s** (${ingest.records.toLocaleString("en-US")} records in ${ingest.seconds.toFixed(0)} s, ${ingest.cpuMicrosPerRecord} µs CPU per record, load ${ingest.loadDuring.toFixed(2)} during the pass); target 5,000 records/s: ${verdict}. ` +
        `What bounds it: CPU. The pass got ${cores.toFixed(2)} of the 2 cores on average (records/s × CPU per record); with both cores to itself, ${ingest.cpuMicrosPerRecord} µs per record allows at most ${ceiling.toLocaleString("en-US")} records/s, and 5,000 records/s needs at most 400 µs. Where the CPU goes, per thread and stage: \`node --import tsx bench/scale/profile-ingest.ts\` (figures in the analysis below).`,
      "",
    );
  }
  lines.push(
    "Each filter on a newest-first browse of the whole corpus (10 results), through the search service in-process, one call at a time, " +
      `${SECONDS} s each; target p50 <= ${TARGET_MS} ms.`,
    "",
    "| query | request | total | p50 ms | p99 ms | calls | target |",
    "|---|---|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.name} | \`${r.path}\` | ${r.total.toLocaleString("en-US")}${r.relation === "approximate" ? " (approximate)" : ""}${r.coverage === "complete" ? "" : ` (partial: ${r.coverage})`} | ${r.latency.p50.toFixed(1)} | ${r.latency.p99.toFixed(1)} | ${r.latency.samples} | ${r.latency.p50 <= TARGET_MS ? "met" : "missed"} |`,
    ),
  );
  if (!done) lines.push("", `(Run in progress: ${rows.length} of ${QUERIES.length} queries timed.)`);
  writeSection(args.out, "derived-fields", lines.join("\n"));
}

await main();
