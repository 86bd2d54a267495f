// The scale benchmark (issue 3): a corpus generated from the real sample
// (default 1,000,000 articles over 6 months), ingested twice through the real
// pipeline (the product path with story clustering, then the same pipeline
// without it, to price clustering), then a fixed query mix timed three ways:
//   engine  IndexBackend.search in-process (SQLite and the merge: the engine's own cost)
//   API     over HTTP, one keep-alive client, one request at a time (same query)
//   load    autocannon, 10 connections (throughput, and latency under load)
// with Fastify hello-world on the same machine as the floor, and a mixed-load
// row (browsing while other connections run heavy queries). Then, where a JDK
// >= 21 is installed, the side by side (bench/opensearch/side-by-side.ts): the
// embedded API, the scaled API over the bench's own OpenSearch node (port from
// --opensearch-port, heap --opensearch-heap, PostgreSQL control store at
// --database-url in a schema of its own) and the raw requests the scaled API
// sends the node, on a generated corpus of --side-articles. Each part rewrites
// its own section of bench/RESULTS.md.
//
//   npm run bench [-- --articles 1000000 --months 6 --seconds 5 --reuse --ingest-rounds 1]
//   npm run bench -- --side-by-side only --side-articles 95000 [--reuse --opensearch-up PATH --java-home PATH]
//   npm run bench -- --side-by-side only --side-articles 1000000 --reuse
//
// --side-by-side auto (default) runs the side by side when a JDK >= 21 and the recipe
// (shared/opensearch/opensearch-up.sh beside the repository) are found; on requires them;
// off skips it; only runs nothing else.
// --reuse keeps an index already ingested from the same corpus by an earlier run, and the
// figures of both ingest passes. --index-dir DIR reads (and with --reuse keeps) the index in
// DIR instead of bench/.data/index-<articles>: a copy of a shared index, since serving writes
// into it. --ingest-rounds N runs the two passes N times, alternating, and keeps each one's
// fastest: on a shared machine the fastest pass is the least disturbed.
// Not part of `npm test`. Data lives under bench/.data/ (gitignored).

import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SqliteIndexBackend } from "../src/adapters/sqlite/sqlite-index-backend.js";
import { generateCorpus, type Corpus } from "./corpus/generate-corpus.js";
import { renderSideBySide, sideBySide, sideBySideUnavailable, type SideBySideOptions } from "./opensearch/side-by-side.js";
import { startChild } from "./scale/child-server.js";
import { bytesUnder, monthlyIndexes } from "./scale/disk-usage.js";
import type { PassFigures, PassKind } from "./scale/ingest-pass.js";
import { load, loadAverage, machine, timeCalls, timeHttp, type Latency, type Throughput } from "./scale/measure.js";
import { mixedLoad, type MixedLoad } from "./scale/mixed-load.js";
import { mixedLoadLines } from "./scale/mixed-load-report.js";
import {
  engineQuery,
  MIXED_LOAD,
  MIXED_LOAD_SECONDS,
  pathOf,
  QUERY_MIX,
  STORY_MIX,
  storyPathOf,
  type BenchQuery,
} from "./scale/query-mix.js";
import { sizedHeading, sizedSection, writeSection } from "./scale/results-file.js";
import { ingestPass } from "./scale/run-ingest.js";

const { values: args } = parseArgs({
  options: {
    articles: { type: "string", default: "1000000" },
    months: { type: "string", default: "6" },
    seconds: { type: "string", default: "5" },
    reuse: { type: "boolean", default: false },
    "ingest-rounds": { type: "string", default: "1" },
    "index-dir": { type: "string" },
    "side-by-side": { type: "string", default: "auto" },
    "side-articles": { type: "string", default: "95000" },
    "opensearch-up": { type: "string" },
    "java-home": { type: "string" },
    "opensearch-port": { type: "string", default: "19400" },
    "opensearch-heap": { type: "string", default: "2g" },
    "database-url": { type: "string", default: "postgres://postgres@127.0.0.1:5432/test" },
    out: { type: "string", default: new URL("./RESULTS.md", import.meta.url).pathname },
  },
});
const ARTICLES = Number(args.articles);
const MONTHS = Number(args.months);
const SECONDS = Number(args.seconds);
const INGEST_ROUNDS = Math.max(1, Number(args["ingest-rounds"]));
const DATA = new URL(".data/", import.meta.url).pathname;
const SIDE_BY_SIDE = args["side-by-side"] as string;
if (!["auto", "on", "off", "only"].includes(SIDE_BY_SIDE)) throw new Error("--side-by-side is auto, on, off or only");

/** Both ingest passes over the same corpus. */
interface IngestFigures {
  clustered: PassFigures;
  /** Absent when the kept index came from a clustered pass alone (another run's, copied with its figures). */
  baseline?: PassFigures;
  /** Extra wall time per record that clustering costs, as a fraction of the baseline's. */
  slowdown?: number;
  /** Every pass run, in order, when there were several rounds. */
  passes: PassFigures[];
  /** Where the figures come from, when not from this bench's own passes. */
  source?: string;
}

interface Row {
  query: BenchQuery;
  path: string;
  total: number;
  engine: Latency;
  /** The same engine call timed inside the API process while the API was measured. */
  inServer: Latency;
  api: Latency;
  loaded: Throughput;
}

/** A story listing: measured over HTTP only. */
type StoryRow = Pick<Row, "query" | "path" | "total" | "api">;

/**
 * Ingests the corpus with clustering into `dataDir` (kept: the queries run on it) and without it into a
 * temporary dir beside it (removed afterwards). --reuse takes the figures of an earlier run on the same corpus.
 */
async function ingest(corpus: Corpus, corpusDir: string, dataDir: string): Promise<IngestFigures> {
  const marker = join(dataDir, "BENCH-INGEST.json");
  if (args.reuse && existsSync(marker)) {
    const previous = JSON.parse(readFileSync(marker, "utf8")) as { corpus?: string } & Partial<IngestFigures>;
    if (previous.corpus === corpus.key && previous.clustered) return { passes: [], ...previous } as IngestFigures;
    console.error("the kept index is from another corpus or an older bench: ingesting again");
  }
  const baselineDir = join(DATA, `baseline-${ARTICLES}`);
  const passes: PassFigures[] = [];
  for (let round = 0; round < INGEST_ROUNDS; round++) {
    passes.push(await ingestPass("baseline", corpusDir, baselineDir));
    rmSync(baselineDir, { recursive: true, force: true });
    // The last clustered pass leaves the index the queries run on.
    passes.push(await ingestPass("clustered", corpusDir, dataDir));
  }
  const fastest = (kind: PassKind): PassFigures =>
    passes.filter((p) => p.kind === kind).reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  const clustered = fastest("clustered");
  const baseline = fastest("baseline");
  const figures: IngestFigures = { clustered, baseline, slowdown: baseline.perSecond / clustered.perSecond - 1, passes };
  writeFileSync(marker, JSON.stringify({ corpus: corpus.key, ...figures }, null, 2));
  return figures;
}

async function main(): Promise<void> {
  const loadBeforeBench = loadAverage();
  if (SIDE_BY_SIDE !== "only") await scaleBench();
  if (SIDE_BY_SIDE === "off") return;
  const options: SideBySideOptions = {
    repoRoot: new URL("..", import.meta.url).pathname,
    dataRoot: DATA,
    articles: Number(args["side-articles"]),
    months: MONTHS,
    seconds: SECONDS,
    reuse: args.reuse === true,
    port: Number(args["opensearch-port"]),
    heap: args["opensearch-heap"] as string,
    databaseUrl: args["database-url"] as string,
    ...(args["opensearch-up"] ? { script: args["opensearch-up"] } : {}),
    ...(args["java-home"] ? { javaHome: args["java-home"] } : {}),
    ...(SIDE_BY_SIDE === "only" ? {} : { loadBeforeBench }),
  };
  const unavailable = sideBySideUnavailable(options);
  if (unavailable) {
    if (SIDE_BY_SIDE === "auto") return console.error(`side by side with OpenSearch skipped: ${unavailable}`);
    throw new Error(`side by side with OpenSearch: ${unavailable}`);
  }
  const command = `npm run bench -- --side-by-side only --side-articles ${options.articles}${MONTHS === 6 ? "" : ` --months ${MONTHS}`} --seconds ${SECONDS}${options.heap === "2g" ? "" : ` --opensearch-heap ${options.heap}`}`;
  const measured = await sideBySide(options);
  writeFileSync(join(DATA, `side-by-side-${options.articles}.json`), JSON.stringify(measured, null, 2));
  const section = renderSideBySide(measured, options, command);
  // The 95k run keeps the section the side by side always had; other sizes get one of their own.
  writeSection(args.out, options.articles === 95_000 ? "side-by-side" : `side-by-side-${options.articles}`, section);
  console.log(section);
}

async function scaleBench(): Promise<void> {
  const loadBefore = loadAverage();
  const corpusDir = join(DATA, `corpus-${ARTICLES}`);
  console.error(`generating ${ARTICLES} articles into ${corpusDir} (reused when already there) ...`);
  const corpus = await generateCorpus({ articles: ARTICLES, firstMonth: "2024-01", months: MONTHS, outDir: corpusDir, seed: 1 });
  const dataDir = args["index-dir"] ?? join(DATA, `index-${ARTICLES}`);
  const ingested = await ingest(corpus, corpusDir, dataDir);
  const indexBytes = bytesUnder(join(dataDir, "index"));
  // The story clustering state beside the index (stories.db and its WAL, if one is left).
  const storiesBytes = ["stories.db", "stories.db-wal"]
    .map((name) => join(dataDir, name))
    .filter((path) => existsSync(path))
    .reduce((sum, path) => sum + statSync(path).size, 0);
  const corpusBytes = corpus.files.reduce((sum, f) => sum + statSync(f).size, 0);

  const api = await startChild<{ port: number; key: string }>("./serve-api.ts", [dataDir]);
  const origin = `http://127.0.0.1:${api.info.port}`;
  const headers = { "x-api-key": api.info.key };
  const engine = new SqliteIndexBackend(dataDir);
  const rows: Row[] = [];
  const storyRows: StoryRow[] = [];
  let mixed: MixedLoad;
  try {
    const queries = await withCursorPage3(QUERY_MIX, origin, headers);
    for (const query of queries) {
      const path = pathOf(query);
      console.error(`measuring ${query.name}: ${path}`);
      const engineQ = engineQuery(query.params);
      const total = (await engine.search(engineQ)).total;
      const engineLatency = await timeCalls(() => engine.search(engineQ), SECONDS);
      api.tell("reset");
      const apiLatency = await timeHttp(origin, path, headers, SECONDS);
      const inServer = JSON.parse(await api.ask("stats")) as Latency;
      const loaded = await load(origin + path, headers, 10, SECONDS);
      rows.push({ query, path, total, engine: engineLatency, inServer, api: apiLatency, loaded });
    }
    for (const query of STORY_MIX) {
      const path = storyPathOf(query);
      console.error(`measuring ${query.name}: ${path}`);
      const body = (await (await fetch(origin + path, { headers })).json()) as { total: number };
      storyRows.push({ query, path, total: body.total, api: await timeHttp(origin, path, headers, SECONDS) });
    }
    console.error(
      `measuring mixed load: ${MIXED_LOAD.browseConnections} connection browses, ${MIXED_LOAD.heavyConnections} run ${MIXED_LOAD.heavy.join(", ")}`,
    );
    mixed = await mixedLoad(origin, () => headers, MIXED_LOAD, Math.max(SECONDS, MIXED_LOAD_SECONDS));
  } finally {
    await engine.close();
    await api.stop();
  }

  const hello = await startChild<{ port: number }>("./serve-hello.ts");
  let helloLatency: Latency;
  let helloLoaded: Throughput;
  try {
    helloLatency = await timeHttp(`http://127.0.0.1:${hello.info.port}`, "/", {}, SECONDS);
    helloLoaded = await load(`http://127.0.0.1:${hello.info.port}/`, {}, 10, SECONDS);
  } finally {
    await hello.stop();
  }

  const report = render({
    ingested,
    corpusHeadlines: corpus.headlines,
    corpusFiles: corpus.files.length,
    corpusBytes,
    indexBytes,
    storiesBytes,
    partitions: monthlyIndexes(dataDir),
    rows,
    storyRows,
    mixed,
    helloLatency,
    helloLoaded,
    loadBefore,
    loadAfter: loadAverage(),
  });
  writeFileSync(
    join(DATA, `results-${ARTICLES}.json`),
    JSON.stringify({ ingested, rows, storyRows, mixed, helloLatency, helloLoaded }, null, 2),
  );
  writeSection(args.out, sizedSection("scale", ARTICLES), report);
  console.log(report);
}

/** The mix with `cursor=<page 3>` replaced by the real next_cursor of page 2. */
async function withCursorPage3(
  mix: readonly BenchQuery[],
  origin: string,
  headers: Record<string, string>,
): Promise<BenchQuery[]> {
  let cursor = "start";
  for (let page = 1; page < 3; page++) {
    const response = await fetch(`${origin}/search?cursor=${encodeURIComponent(cursor)}`, { headers });
    const body = (await response.json()) as { next_cursor?: string };
    if (!body.next_cursor) throw new Error("the browse has fewer than 3 pages");
    cursor = body.next_cursor;
  }
  return mix.map((q) => (q.params.cursor === "<page 3>" ? { ...q, params: { ...q.params, cursor } } : q));
}

const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v.toFixed(1));

function render(r: {
  ingested: IngestFigures;
  corpusHeadlines: string;
  corpusFiles: number;
  corpusBytes: number;
  indexBytes: number;
  storiesBytes: number;
  partitions: number;
  rows: Row[];
  storyRows: StoryRow[];
  mixed: MixedLoad;
  helloLatency: Latency;
  helloLoaded: Throughput;
  loadBefore: string;
  loadAfter: string;
}): string {
  const gib = (b: number): string => `${(b / 2 ** 30).toFixed(1)} GiB`;
  const table = r.rows.map((row) => {
    const shown = row.path.length > 70 ? `${row.path.slice(0, 67)}...` : row.path;
    return `| ${row.query.name} | \`${shown}\` | ${row.total} | ${ms(row.engine.p50)} / ${ms(row.engine.p99)} | ${ms(row.inServer.p50)} | ${ms(row.api.p50)} / ${ms(row.api.p99)} | ${(row.api.p50 / row.engine.p50).toFixed(2)}x | ${Math.round(row.loaded.requestsPerSecond)} | ${row.loaded.p50} / ${row.loaded.p99} |`;
  });
  return [
    ARTICLES === 1_000_000 ? "# Scale benchmark" : sizedHeading("## Scale benchmark", ARTICLES),
    "",
    `Machine: ${machine()}. Load average before / after the run (1, 5, 15 min): ${r.loadBefore} → ${r.loadAfter}.`,
    `Command: \`npm run bench -- --articles ${ARTICLES} --months ${MONTHS} --seconds ${SECONDS}${INGEST_ROUNDS > 1 ? ` --ingest-rounds ${INGEST_ROUNDS}` : ""}${args.reuse ? " --reuse" : ""}${args["index-dir"] ? ` --index-dir ${args["index-dir"]}` : ""}\`.`,
    "",
    `Corpus: ${ARTICLES.toLocaleString("en")} articles generated from the bundled GDELT sample (fields of real records recombined, fresh ids, 15-minute batches over ${MONTHS} months from 2024-01; ${r.corpusHeadlines}), ${r.corpusFiles} gzip GKG files, ${gib(r.corpusBytes)}. Index: ${r.partitions} monthly indexes, ${gib(r.indexBytes)} on disk (${perArticle(r.indexBytes)} B per article), and \`stories.db\` ${perArticle(r.storiesBytes)} B per article: ${perArticle(r.indexBytes + r.storiesBytes)} B per article in all, no vectors (what each part holds: \`node --import tsx bench/size/size-breakdown.mts DATA_DIR\`).`,
    "",
    ...ingestLines(r.ingested),
    "",
    `Latency in ms, p50 / p99. Engine: \`IndexBackend.search\` in-process, the machine otherwise idle. Engine in API process: the same call timed inside the server while the API column was measured. API: HTTP over loopback, one keep-alive client, ${SECONDS} s per query. Load: autocannon, 10 connections, ${SECONDS} s (its histogram keeps whole ms).`,
    "",
    "| query | path | matches | engine p50 / p99 | engine in API process, p50 | API p50 / p99 | API / engine (p50) | req/s, 10 conn | p50 / p99, 10 conn |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ...table,
    `| Fastify hello-world | \`/\` | | | | ${ms(r.helloLatency.p50)} / ${ms(r.helloLatency.p99)} | | ${Math.round(r.helloLoaded.requestsPerSecond)} | ${r.helloLoaded.p50} / ${r.helloLoaded.p99} |`,
    "",
    `Story listings (\`/stories\`, the same key and client; ${SECONDS} s per query), in ms:`,
    "",
    "| listing | path | stories | API p50 / p99 |",
    "|---|---|---:|---:|",
    ...r.storyRows.map(
      (row) => `| ${row.query.name} | \`${row.path}\` | ${row.total} | ${ms(row.api.p50)} / ${ms(row.api.p99)} |`,
    ),
    "",
    ...mixedLoadLines(r.mixed),
    "",
    "## Targets",
    "",
    "| target | measured | |",
    "|---|---:|---|",
    ...targets(r),
    "",
  ].join("\n");
}

function ingestLines(r: IngestFigures): string[] {
  const { clustered: c, baseline: b } = r;
  const rate = (p: PassFigures): string => `**${p.perSecond.toLocaleString("en")} records/s**`;
  const lines = [
    `Ingest through the whole pipeline (gunzip, parse, map, cluster into stories, index), the product path: ${rate(c)} (${c.records.toLocaleString("en")} records in ${c.seconds.toFixed(0)} s${r.source ? `; ${r.source}` : ""}).`,
  ];
  if (b)
    lines.push(
      `The same pipeline without story clustering (\`IngestService\` built without its \`stories\`, into a second data dir): ${rate(b)} (${b.seconds.toFixed(0)} s).`,
      `Clustering slows ingest by **${((r.slowdown ?? 0) * 100).toFixed(1)}%** (wall time per record; the rate drops by ${((1 - c.perSecond / b.perSecond) * 100).toFixed(1)}%). CPU per record, every thread: ${c.cpuMicrosPerRecord} µs with clustering, ${b.cpuMicrosPerRecord} µs without (+${(c.cpuMicrosPerRecord / b.cpuMicrosPerRecord - 1).toLocaleString("en", { style: "percent", maximumFractionDigits: 1 })}). Mean load average during the passes: ${c.loadDuring.toFixed(2)} with clustering, ${b.loadDuring.toFixed(2)} without.`,
    );
  else
    lines.push(
      `The pass without story clustering was not run for this index, so clustering's share of ingest is not measured here. CPU per record, every thread: ${c.cpuMicrosPerRecord} µs; mean load average during the pass: ${c.loadDuring.toFixed(2)}; peak RSS ${c.maxRssMiB.toLocaleString("en")} MiB.`,
    );
  if (r.passes.length > 2)
    lines.push(
      `Fastest of ${r.passes.length / 2} rounds, each pass in records/s (baseline, clustered, alternating): ${r.passes.map((p) => p.perSecond.toLocaleString("en")).join(", ")}.`,
    );
  const s = c.stories;
  if (s)
    lines.push(
      `Stories: ${s.stories.toLocaleString("en")}, of which ${s.multi.toLocaleString("en")} have two articles or more (holding ${((s.inMulti / c.records) * 100).toFixed(1)}% of the articles); the largest has ${s.largest.toLocaleString("en")} articles, the longest spans ${s.longestSpanHours.toLocaleString("en")} h, and ${(s.inWeekPlus * 100).toFixed(1)}% of the articles are in a story spanning more than a week.`,
    );
  return lines.flatMap((line) => [line, ""]).slice(0, -1);
}

const perArticle = (bytes: number): string => Math.round(bytes / ARTICLES).toLocaleString("en");

function targets(r: {
  ingested: IngestFigures;
  rows: Row[];
  storyRows: StoryRow[];
  mixed: MixedLoad;
  indexBytes: number;
  storiesBytes: number;
}): string[] {
  const row = (t: BenchQuery["target"]): Row | undefined => r.rows.find((x) => x.query.target === t);
  const verdict = (value: number, limit: number, unit: string): string =>
    value <= limit
      ? "met"
      : `missed by ${(value / limit).toFixed(1)}x (${(value - limit).toFixed(unit === "ms" ? 1 : 0)} ${unit} over)`;
  const lines: string[] = [];
  const keyword = row("keyword");
  if (keyword) {
    lines.push(`| keyword /search p50 <= 10 ms | ${ms(keyword.api.p50)} ms | ${verdict(keyword.api.p50, 10, "ms")} |`);
    lines.push(`| keyword /search p99 <= 50 ms | ${ms(keyword.api.p99)} ms | ${verdict(keyword.api.p99, 50, "ms")} |`);
  }
  const facets = row("facets");
  if (facets)
    lines.push(`| /search with 3 facets p50 <= 30 ms | ${ms(facets.api.p50)} ms | ${verdict(facets.api.p50, 30, "ms")} |`);
  const cursor = row("cursor");
  if (cursor) lines.push(`| cursor page p50 <= 10 ms | ${ms(cursor.api.p50)} ms | ${verdict(cursor.api.p50, 10, "ms")} |`);
  const bySize = r.storyRows.find((x) => x.query.params.sort === "count");
  if (bySize)
    lines.push(`| \`/stories?sort=count\` p50 <= 250 ms | ${ms(bySize.api.p50)} ms | ${verdict(bySize.api.p50, 250, "ms")} |`);
  const browseP99 = r.mixed.loaded.latency.p99;
  lines.push(
    `| browse p99 under mixed load <= 25 ms (idle: ${ms(r.mixed.idle.latency.p99)} ms) | ${ms(browseP99)} ms | ${r.mixed.loaded.latency.samples === 0 ? "missed: no browse answered" : verdict(browseP99, 25, "ms")} |`,
  );
  if (keyword) {
    const perSecond = keyword.loaded.requestsPerSecond;
    lines.push(
      `| keyword searches/s at 10 connections >= 100 | ${Math.round(perSecond)} /s | ${perSecond >= 100 ? "met" : `missed by ${(100 / perSecond).toFixed(1)}x`} |`,
    );
  }
  for (const x of r.rows) {
    const ratio = x.api.p50 / x.engine.p50;
    lines.push(
      `| API <= 1.3x engine: ${x.query.name} | ${ratio.toFixed(2)}x | ${ratio <= 1.3 ? "met" : `missed (${ms(x.api.p50 - x.engine.p50)} ms of API time per call)`} |`,
    );
  }
  const bytes = (r.indexBytes + r.storiesBytes) / ARTICLES;
  lines.push(
    `| index + stories <= 2,500 B per article | ${perArticle(r.indexBytes + r.storiesBytes)} B | ${bytes <= 2500 ? "met" : `missed by ${(bytes / 2500).toFixed(2)}x`} |`,
  );
  const ingest = r.ingested.clustered.perSecond;
  lines.push(
    `| ingest >= 5,000 records/s | ${ingest.toLocaleString("en")} /s | ${ingest >= 5000 ? "met" : `missed by ${(5000 / ingest).toFixed(2)}x`} |`,
  );
  if (r.ingested.slowdown === undefined)
    lines.push("| clustering slows ingest <= 30% | | not measured (no pass without clustering) |");
  else {
    const slowdown = r.ingested.slowdown * 100;
    lines.push(
      `| clustering slows ingest <= 30% | ${slowdown.toFixed(1)}% | ${slowdown <= 30 ? "met" : `missed by ${(slowdown - 30).toFixed(1)} points`} |`,
    );
  }
  return lines;
}

await main();
