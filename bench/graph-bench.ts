// The relationship graph at scale: the corpus of the scale benchmark (default
// 1,000,000 articles over 6 months from 2024-01, generated from the real
// sample), ingested once with story clustering, then the targets of
// /graph/related, /graph/path and /graph/network timed over HTTP (one
// keep-alive client, one request at a time). Rewrites its own section of
// bench/RESULTS.md.
//
//   npm run bench:graph [-- --articles 1000000 --months 6 --seconds 5 --reuse]
//
// --reuse serves an index already ingested from this corpus under
// bench/.data/graph-index-<articles> (this bench's, or the same corpus
// ingested by another bench and copied there) instead of ingesting again.
// Run it under the bench lock: flock /tmp/newsindex-bench.lock npm run bench:graph
// Not part of `npm test`. Data lives under bench/.data/ (gitignored).

import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
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
  /** What the answer holds, for the reader. */
  size: string;
  api: Latency;
  /** The target p50, ms; undefined for a row measured for context. */
  target?: number;
}

/** The ingest figures an earlier pass over this index left beside it, if any. */
function keptIngest(dataDir: string): PassFigures | undefined {
  const marker = readdirSync(dataDir).find((name) => /-INGEST\.json$/.test(name));
  return marker ? (JSON.parse(readFileSync(join(dataDir, marker), "utf8")) as { pass: PassFigures }).pass : undefined;
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  const dataDir = join(DATA, `graph-index-${ARTICLES}`);
  let ingested: PassFigures | undefined;
  if (args.reuse && existsSync(join(dataDir, "index"))) ingested = keptIngest(dataDir);
  else {
    const corpusDir = join(DATA, `corpus-${ARTICLES}`);
    console.error(`generating ${ARTICLES} articles into ${corpusDir} (reused when already there) ...`);
    const corpus = await generateCorpus({
      articles: ARTICLES,
      firstMonth: "2024-01",
      months: MONTHS,
      outDir: corpusDir,
      seed: 1,
    });
    ingested = await ingestPass("clustered", corpusDir, dataDir);
    writeFileSync(join(dataDir, "GRAPH-INGEST.json"), JSON.stringify({ corpus: corpus.key, pass: ingested }, null, 2));
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
  try {
    const biden = await get<{ entities: Array<{ entity_id: string; articles: number }> }>("/entities?q=biden&type=person");
    const first = biden.entities[0];
    if (first === undefined) throw new Error("no entity for biden in the corpus");
    // The other end of the path: the person most often named beside the first.
    const beside = await get<{ related: Array<{ entity_id: string }> }>(
      `/graph/related?entity_id=${encodeURIComponent(first.entity_id)}&types=person&limit=1&evidence=0`,
    );
    const second = beside.related[0]?.entity_id;
    if (second === undefined) throw new Error("no person named beside the first");
    const seed = `entity_id=${encodeURIComponent(first.entity_id)}`;
    const ends = `from_entity=${encodeURIComponent(first.entity_id)}&to_entity=${encodeURIComponent(second)}`;
    const quarters = "from=2024-04-01&to=2024-06-30&compare_from=2024-01-01&compare_to=2024-03-31";
    type Body = Record<string, unknown>;
    const edges = (b: Body) => b.related as Array<{ evidence: unknown[] }>;
    const credits = (b: Body) => `${String(b.credits_charged)} credits`;

    const plan: Array<Omit<Measured, "api" | "size"> & { size: (body: Body) => string }> = [
      {
        name: "related, evidence=3",
        path: `/graph/related?${seed}&evidence=3`,
        target: 100,
        size: (b) =>
          `${edges(b).length} edges over ${String((b.seed as Body).articles)} articles, ${edges(b).filter((e) => e.evidence.length > 0).length} with evidence; ${credits(b)}`,
      },
      {
        name: "path, two hops",
        path: `/graph/path?${ends}`,
        target: 250,
        size: (b) => `direct ${String((b.direct as Body).co_mentions)}, ${(b.paths as unknown[]).length} paths; ${credits(b)}`,
      },
      {
        name: "network with a comparison",
        path: `/graph/network?${seed}&${quarters}`,
        target: 250,
        size: (b) => {
          const c = b.comparison as Record<string, unknown[]>;
          return `${Object.values(b.neighbors as Record<string, unknown[]>).flat().length} neighbours; ${c.new?.length} new, ${c.gone?.length} gone, ${c.grew?.length} grew, ${c.fell?.length} fell; ${credits(b)}`;
        },
      },
      {
        name: "related, counts only (context)",
        path: `/graph/related?${seed}&evidence=0`,
        size: (b) => `${edges(b).length} edges; ${credits(b)}`,
      },
      {
        name: "path, max_hops=1 (context)",
        path: `/graph/path?${ends}&max_hops=1`,
        size: (b) => `direct ${String((b.direct as Body).co_mentions)}; ${credits(b)}`,
      },
      {
        name: "network, no comparison (context)",
        path: `/graph/network?${seed}`,
        size: (b) => `${Object.values(b.neighbors as Record<string, unknown[]>).flat().length} neighbours; ${credits(b)}`,
      },
      {
        name: "exposures of the two (context)",
        path: `/graph/exposures?${seed}&entity_id=${encodeURIComponent(second)}&facets=source`,
        size: (b) => `${String((b.shared as Body).articles)} shared articles; ${credits(b)}`,
      },
    ];
    for (const row of plan) {
      console.error(`measuring ${row.name}: ${row.path}`);
      const body = await get<Body>(row.path);
      const measured = await timeHttp(origin, row.path, headers, SECONDS);
      rows.push({ ...row, size: row.size(body), api: measured });
      console.error(`  p50 ${measured.p50.toFixed(1)} ms, p99 ${measured.p99.toFixed(1)} ms`);
    }
  } finally {
    await api.stop();
  }

  const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v.toFixed(1));
  const table = rows.map(
    (r) =>
      `| ${r.name} | \`${r.path.length > 90 ? `${r.path.slice(0, 87)}...` : r.path}\` | ${r.size} | ${ms(r.api.p50)} / ${ms(r.api.p99)} | ${r.api.samples} | ${r.target === undefined ? "" : `<= ${r.target}: ${r.api.p50 <= r.target ? "met" : `missed (${(r.api.p50 / r.target).toFixed(1)}x)`}`} |`,
  );
  const ingest = ingested
    ? `ingested with story clustering in ${Math.round(ingested.seconds)} s (${ingested.perSecond} records/s)`
    : "ingested with story clustering";
  const section = [
    sizedHeading("## Relationship graph at scale", ARTICLES),
    "",
    `Command: \`flock /tmp/newsindex-bench.lock npm run bench:graph -- --articles ${ARTICLES}${MONTHS === 6 ? "" : ` --months ${MONTHS}`} --seconds ${SECONDS}${args.reuse ? " --reuse" : ""}\` (bench/graph-bench.ts). Machine: ${machine()}. Load average before: ${loadBefore}; after: ${loadAverage()}.`,
    "",
    `Corpus: ${ARTICLES.toLocaleString("en")} articles generated from the real sample (the scale benchmark's generator, ${MONTHS} months from 2024-01, seed 1), ${ingest}; ${(indexBytes / 2 ** 30).toFixed(1)} GiB of monthly indexes with their er-v1 entity keys. Each row: one keep-alive client, one request at a time, for ${SECONDS} s after a warm-up; latency in ms, body read included. Every answer is counted from the index at query time (nothing cached between calls).`,
    "",
    "| query | path | answer | p50 / p99 ms | samples | target p50 ms |",
    "|---|---|---|---:|---:|---|",
    ...table,
  ].join("\n");
  writeSection(args.out, sizedSection("graph", ARTICLES), section);
  console.log(section);
}

await main();
