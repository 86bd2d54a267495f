// Entities and time series at scale: the corpus of the scale benchmark
// (default 1,000,000 articles over 6 months from 2024-01, generated from the
// real sample), ingested once with story clustering, then the targets of
// /entities, /aggregate and the `entity_id` filter timed over HTTP (one
// keep-alive client, one request at a time). A series with no filter but its
// window is timed twice in the same run: counted from the articles (each
// index's time tallies set aside, as an index written before them), then from
// the tallies (built first when the index has none, the build timed).
// Rewrites its own section of bench/RESULTS.md.
//
//   npm run bench:entities [-- --articles 1000000 --months 6 --seconds 5 --reuse]
//
// --reuse keeps an index this bench ingested from the same corpus earlier (or
// another bench's index of the same corpus, copied to entities-index-<articles>
// with an ENTITIES-INGEST.json naming the corpus).
// Run it under the bench lock: flock /tmp/newsindex-bench.lock npm run bench:entities
// Not part of `npm test`. Data lives under bench/.data/ (gitignored).

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { openForWrite } from "../src/adapters/sqlite/open-for-write.js";
import { join } from "node:path";
import { generateCorpus } from "./corpus/generate-corpus.js";
import { startChild } from "./scale/child-server.js";
import { bytesUnder } from "./scale/disk-usage.js";
import type { PassFigures } from "./scale/ingest-pass.js";
import { loadAverage, machine, timeHttp, type Latency } from "./scale/measure.js";
import { benchOptions } from "./scale/bench-options.js";
import { sizedHeading, sizedSection, writeSection } from "./scale/results-file.js";
import { ingestPass } from "./scale/run-ingest.js";

const args = benchOptions();
const { articles: ARTICLES, months: MONTHS, seconds: SECONDS, dataDir: DATA } = args;

interface Measured {
  name: string;
  path: string;
  /** What the answer holds, for the reader: groups, buckets or matches. */
  size: string;
  api: Latency;
  /** The same request counted from the articles (the time tallies set aside): a series with no filter but its window. */
  articles?: { api: Latency; size: string };
  /** The target p50, ms; undefined for a row measured for context. */
  target?: number;
}

/** The monthly index files of a data dir. */
function indexFiles(dataDir: string): Array<{ month: string; path: string }> {
  const dir = join(dataDir, "index");
  return readdirSync(dir)
    .map((name) => /^articles-(\d{6})\.db$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ month: m[1] as string, path: join(dir, m[0]) }));
}

/** Each index's `tallies` meta value (undefined: written before the tallies). */
function talliesMeta(path: string): string | undefined {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT value FROM meta WHERE key = 'tallies'").pluck().get() as string | undefined;
  } finally {
    db.close();
  }
}

function setTalliesMeta(path: string, value: string): void {
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare("UPDATE meta SET value = ? WHERE key = 'tallies'").run(value);
  } finally {
    db.close();
  }
}

const SET_ASIDE = "set aside by the bench";

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  const corpusDir = join(DATA, `corpus-${ARTICLES}`);
  console.error(`generating ${ARTICLES} articles into ${corpusDir} (reused when already there) ...`);
  const corpus = await generateCorpus({ articles: ARTICLES, firstMonth: "2024-01", months: MONTHS, outDir: corpusDir, seed: 1 });
  const dataDir = join(DATA, `entities-index-${ARTICLES}`);
  const marker = join(dataDir, "ENTITIES-INGEST.json");
  let ingested: PassFigures | undefined;
  const previous =
    args.reuse && existsSync(marker)
      ? (JSON.parse(readFileSync(marker, "utf8")) as { corpus: string; pass?: PassFigures })
      : undefined;
  if (previous?.corpus === corpus.key) ingested = previous.pass;
  else {
    ingested = await ingestPass("clustered", corpusDir, dataDir);
    writeFileSync(marker, JSON.stringify({ corpus: corpus.key, pass: ingested }, null, 2));
  }
  const indexBytes = bytesUnder(join(dataDir, "index"));

  const api = await startChild<{ port: number; key: string }>("./serve-api.ts", [dataDir]);
  const origin = `http://127.0.0.1:${api.info.port}`;
  const headers = { "x-api-key": api.info.key };
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(origin + path, { headers });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const rows: Measured[] = [];
  let tallyBuild: { months: number; seconds: number } | undefined;
  try {
    const biden = await get<{ entities: Array<{ entity_id: string; articles: number }> }>("/entities?q=biden&type=person");
    const first = biden.entities[0];
    if (first === undefined) throw new Error("no entity for biden in the corpus");
    // The second id: the person most often named beside the first.
    const beside = await get<{ facets: { person: { values: Array<{ value: string }> } } }>(
      `/search?entity_id=${encodeURIComponent(first.entity_id)}&facets=person&facet_limit=5&limit=1`,
    );
    const other = beside.facets.person.values.find((v) => `person:${v.value}` !== first.entity_id);
    if (other === undefined) throw new Error("no person named beside the first");
    const second = (
      await get<{ entities: Array<{ entity_id: string }> }>(`/entities?q=${encodeURIComponent(other.value)}&type=person&limit=1`)
    ).entities[0]?.entity_id as string;
    const two = `entity_id=${encodeURIComponent(first.entity_id)}&entity_id=${encodeURIComponent(second)}`;
    const sixMonths = `from=2024-01-01&to=${MONTHS === 6 ? "2024-06-30" : "2024-12-31"}`;

    const plan: Array<
      Omit<Measured, "api" | "size" | "articles"> & { size: (body: Record<string, unknown>) => string; tallies?: boolean }
    > = [
      {
        name: "entities, biden as a person",
        path: "/entities?q=biden&type=person",
        target: 50,
        size: (b) => `${(b.entities as unknown[]).length} groups; first ${first.entity_id} in ${first.articles} articles`,
      },
      {
        name: "aggregate by day over six months, distinct stories and outlets",
        path: `/aggregate?interval=day&${sixMonths}&metrics=stories,outlets`,
        target: 200,
        tallies: true,
        size: (b) => `${(b.buckets as unknown[]).length} buckets, ${String(b.total)} articles`,
      },
      {
        name: "two entity_id filters",
        path: `/search?${two}`,
        target: 30,
        size: (b) => `${String(b.total)} matches`,
      },
      {
        name: "one entity_id filter (context)",
        path: `/search?entity_id=${encodeURIComponent(first.entity_id)}`,
        size: (b) => `${String(b.total)} matches`,
      },
      {
        name: "aggregate by day over six months, articles only (context)",
        path: `/aggregate?interval=day&${sixMonths}`,
        tallies: true,
        size: (b) => `${(b.buckets as unknown[]).length} buckets`,
      },
      {
        name: "aggregate by hour over one week, distinct stories and outlets (context)",
        path: "/aggregate?interval=hour&from=2024-03-04&to=2024-03-10&metrics=stories,outlets",
        tallies: true,
        size: (b) => `${(b.buckets as unknown[]).length} buckets, ${String(b.total)} articles`,
      },
      {
        name: "aggregate by week over six months from a cut instant, distinct stories and outlets (context)",
        path: `/aggregate?interval=week&from=20240101093000&to=${MONTHS === 6 ? "20240630181500" : "20241231181500"}&metrics=stories,outlets`,
        tallies: true,
        size: (b) => `${(b.buckets as unknown[]).length} buckets, ${String(b.total)} articles`,
      },
      {
        name: "aggregate by week of one entity, distinct stories and outlets (context)",
        path: `/aggregate?interval=week&${sixMonths}&metrics=stories,outlets&entity_id=${encodeURIComponent(first.entity_id)}`,
        size: (b) => `${(b.buckets as unknown[]).length} buckets, ${String(b.total)} articles`,
      },
    ];
    // First the series with no filter, counted from the articles: every index's tallies set aside.
    const files = indexFiles(dataDir);
    for (const file of files) if (talliesMeta(file.path) === "v1") setTalliesMeta(file.path, SET_ASIDE);
    const fromArticles = new Map<string, { api: Latency; size: string }>();
    for (const row of plan.filter((r) => r.tallies)) {
      console.error(`measuring ${row.name} from the articles: ${row.path}`);
      const body = await get<Record<string, unknown>>(row.path);
      const api = await timeHttp(origin, row.path, headers, SECONDS);
      fromArticles.set(row.path, { api, size: row.size(body) });
      console.error(`  p50 ${api.p50.toFixed(1)} ms, p99 ${api.p99.toFixed(1)} ms`);
    }
    // Then the tallies: kept aside ones restored, an index written before them built (what `newsindex reindex` does).
    const buildStarted = performance.now();
    let builtMonths = 0;
    for (const file of files) {
      const meta = talliesMeta(file.path);
      if (meta === SET_ASIDE) setTalliesMeta(file.path, "v1");
      else if (meta !== "v1") {
        openForWrite(file.month, file.path).close();
        builtMonths++;
      }
    }
    if (builtMonths > 0) tallyBuild = { months: builtMonths, seconds: (performance.now() - buildStarted) / 1000 };
    for (const row of plan) {
      console.error(`measuring ${row.name}: ${row.path}`);
      const body = await get<Record<string, unknown>>(row.path);
      const api = await timeHttp(origin, row.path, headers, SECONDS);
      const articles = fromArticles.get(row.path);
      rows.push({ ...row, size: row.size(body), api, ...(articles ? { articles } : {}) });
      console.error(`  p50 ${api.p50.toFixed(1)} ms, p99 ${api.p99.toFixed(1)} ms`);
    }
  } finally {
    await api.stop();
  }

  const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v.toFixed(1));
  const table = rows.map(
    (r) =>
      `| ${r.name} | \`${r.path.length > 90 ? `${r.path.slice(0, 87)}...` : r.path}\` | ${r.size} | ${r.articles ? `${ms(r.articles.api.p50)} / ${ms(r.articles.api.p99)} (${r.articles.api.samples})${r.articles.size === r.size ? "" : `, answer ${r.articles.size}`}` : ""} | ${ms(r.api.p50)} / ${ms(r.api.p99)} | ${r.api.samples} | ${r.target === undefined ? "" : `<= ${r.target}: ${r.api.p50 <= r.target ? "met" : `missed (${(r.api.p50 / r.target).toFixed(1)}x)`}`} |`,
  );
  const build = tallyBuild
    ? ` The time tallies of the ${tallyBuild.months} monthly indexes, written before them, were built from their articles in ${tallyBuild.seconds.toFixed(1)} s (what \`newsindex reindex\` or a writer opening them does).`
    : "";
  const section = [
    sizedHeading("## Entities and time series at scale", ARTICLES),
    "",
    `Command: \`flock /tmp/newsindex-bench.lock npm run bench:entities -- --articles ${ARTICLES}${MONTHS === 6 ? "" : ` --months ${MONTHS}`} --seconds ${SECONDS}${args.reuse ? " --reuse" : ""}\` (bench/entities-bench.ts). Machine: ${machine()}. Load average before: ${loadBefore}; after: ${loadAverage()}.`,
    "",
    `Corpus: ${ARTICLES.toLocaleString("en")} articles generated from the real sample (the scale benchmark's generator, ${MONTHS} months from 2024-01, seed 1), ${ingested ? `ingested with story clustering in ${Math.round(ingested.seconds)} s (${ingested.perSecond} records/s)` : "ingested with story clustering by another bench's run (its figures there)"}; ${(indexBytes / 2 ** 30).toFixed(1)} GiB of monthly indexes with their er-v1 entity keys. Each row: one keep-alive client, one request at a time, for ${SECONDS} s after a warm-up; latency in ms, body read included. A series with no filter but its window is measured twice in this run, on the same index and server: first counted from the articles (every index's time tallies set aside, as an index written before them answers), then from the tallies.${build}`,
    "",
    "| query | path | answer | from the articles: p50 / p99 ms (samples) | p50 / p99 ms | samples | target p50 ms |",
    "|---|---|---|---:|---:|---:|---|",
    ...table,
  ].join("\n");
  writeSection(args.out, sizedSection("entities-aggregate", ARTICLES), section);
  console.log(section);
}

await main();
