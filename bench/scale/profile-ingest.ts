// Where the ingest's CPU goes, per thread and per stage: one ingest pass (the
// product path, bench/scale/ingest-pass.ts) run under `node --cpu-prof`, each
// thread's samples summed by the code they were in (self time; SQLite's own
// time counts for the JavaScript function that called it), in µs per record.
// A corpus of one month at the 1M corpus's density makes one monthly index
// of the size a 1M run fills (about 167,000 articles).
//
//   node --import tsx bench/scale/profile-ingest.ts [--articles 200000 --months 1] [--corpus DIR]
//
// `--corpus DIR` profiles an existing corpus (a generated one's COMPLETE.json) instead.
//
// The profiler adds some overhead; compare stages within a run, and runs of
// two builds side by side on the same corpus (`--repo DIR` runs another
// checkout's ingest-pass.ts on this corpus).

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { loadavg } from "node:os";
import { generateCorpus } from "../corpus/generate-corpus.js";
import type { PassFigures } from "./ingest-pass.js";

const { values: args } = parseArgs({
  options: {
    articles: { type: "string", default: "200000" },
    months: { type: "string", default: "1" },
    repo: { type: "string", default: new URL("../..", import.meta.url).pathname },
    corpus: { type: "string" },
  },
});
const ARTICLES = Number(args.articles);
const MONTHS = Number(args.months);
const DATA = new URL("../.data/", import.meta.url).pathname;

/** Stages, by the file (or function) a sample's code was in; the first that matches counts. */
const STAGES: ReadonlyArray<[stage: string, test: (url: string, fn: string) => boolean]> = [
  ["garbage collection", (_u, fn) => fn === "(garbage collector)"],
  [
    "derived rows (signal_values, places, amounts)",
    (u, fn) =>
      u.endsWith("signal-rows-buffer.ts") || (u.endsWith("partition-writer.ts") && /insertRows|writeDerivedRows/.test(fn)),
  ],
  ["postings", (u) => u.endsWith("postings-buffer.ts")],
  ["term ids and counts", (u) => u.endsWith("term-writer.ts")],
  ["story sizes", (u) => u.endsWith("story-tally.ts")],
  ["entity keys", (u) => /entity-keys?\.ts$/.test(u)],
  ["article row, JSON, FTS (SQLite)", (u) => u.endsWith("partition-writer.ts") || u.endsWith("transaction.js")],
  ["signals (themes, GCAM, table)", (u) => /gkg-signals\.ts$|signals-v1\.ts$/.test(u)],
  ["event classes", (u) => u.endsWith("events-v1.ts")],
  [
    "gunzip and line splitting",
    (u, fn) =>
      /node:zlib|physical-lines\.ts|input-stream\.ts|gkg-lines\.ts|internal\/streams|node:internal\/encoding|node:internal\/fs/.test(
        u,
      ) ||
      (u === "" && /^(decode|read|inflate.*)$/.test(fn)),
  ],
  ["GKG parsing", (u) => u.includes("adapters/gdelt/")],
  ["preparing rows for the writer", (u) => /prepared-article\.ts|filter-fields\.ts|headline-key\.ts/.test(u)],
  ["story features and clustering", (u) => u.includes("domain/stories/") || /story-store|held-articles|story-clusterer/.test(u)],
  ["hand-over between threads", (u, fn) => /node:internal\/worker|worker-rpc\.ts/.test(u) || (u === "" && fn === "postMessage")],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function stageOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  for (const [stage, test] of STAGES) if (test(url, functionName)) return stage;
  return "other";
}

/** A thread's busy time by stage (µs), and what it is. */
function summarise(profile: Profile): { role: string; busy: number; stages: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const stages = new Map<string, number>();
  let busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i] as number);
    if (node === undefined || node.callFrame.functionName === "(idle)") continue;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    const stage = stageOf(node);
    stages.set(stage, (stages.get(stage) ?? 0) + dt);
  }
  const has = (s: string) => (stages.get(s) ?? 0) > busy * 0.02;
  const role = has("postings")
    ? "writer"
    : has("GKG parsing")
      ? "ingest"
      : has("story features and clustering")
        ? "clustering"
        : "idle";
  return { role, busy, stages };
}

async function main(): Promise<void> {
  const corpusDir = args.corpus ?? join(DATA, `corpus-${ARTICLES}-${MONTHS}`);
  if (args.corpus === undefined)
    await generateCorpus({ articles: ARTICLES, firstMonth: "2024-01", months: MONTHS, outDir: corpusDir, seed: 1 });
  const name = args.corpus === undefined ? String(ARTICLES) : basename(args.corpus);
  const profDir = join(DATA, `ingest-profile-${name}`);
  const dataDir = join(DATA, `ingest-profile-${name}-index`);
  rmSync(profDir, { recursive: true, force: true });
  const loadBefore = loadavg();
  const stdout = execFileSync(
    process.execPath,
    ["--cpu-prof", "--cpu-prof-dir", profDir, "--import", "tsx", "bench/scale/ingest-pass.ts", "clustered", corpusDir, dataDir],
    { cwd: args.repo, encoding: "utf8", maxBuffer: 1 << 20 },
  );
  const figures = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as PassFigures;
  const threads = readdirSync(profDir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => summarise(JSON.parse(readFileSync(join(profDir, f), "utf8")) as Profile))
    .filter((t) => t.role !== "idle");
  const per = (us: number) => (us / figures.records).toFixed(0);
  console.log(
    `${figures.records} records, ${figures.perSecond} records/s, ${figures.cpuMicrosPerRecord} µs CPU per record (whole process, profiled); ` +
      `load ${loadBefore.map((l) => l.toFixed(2)).join(" ")} before, ${figures.loadDuring.toFixed(2)} during; ${args.repo}`,
  );
  for (const t of threads) {
    console.log(`\n${t.role} thread: busy ${per(t.busy)} µs per record`);
    for (const [stage, us] of [...t.stages].sort((a, b) => b[1] - a[1])) {
      if (us / figures.records >= 1) console.log(`  ${per(us).padStart(5)} µs  ${stage}`);
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
