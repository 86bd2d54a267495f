import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "undici";
import { GkgArticleSource } from "../../src/adapters/gdelt/gkg-source.js";
import { foldValue } from "../../src/domain/filter-fields.js";
import { generateCorpus } from "../corpus/generate-corpus.js";
import { startChild } from "../scale/child-server.js";
import { bytesUnder, monthlyIndexes } from "../scale/disk-usage.js";
import { load, loadAverage, machine, timeAlternating, type Latency, type Throughput } from "../scale/measure.js";
import { pathOf } from "../scale/query-mix.js";
import { ingestPass } from "../scale/run-ingest.js";
import { call, INDEX, loadCorpus, type LoadFigures } from "./corpus-index.js";
import { findJdk, jdkAt, type Jdk } from "./jdk.js";
import { findUpScript, freePort, startNode } from "./node.js";
import { PAIRED_QUERIES, type PairedQuery } from "./paired-queries.js";

// NewsIndex beside a real single-node OpenSearch on the same generated corpus
// (issue 12): the same query mix through each one's HTTP API, one keep-alive
// client each, calls alternating, then throughput at 10 connections. Runs only
// where a JDK >= 21 and the shared OpenSearch recipe are found.

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
  /** The load average before the whole bench, when the side by side follows the scale run: then its own load is the bench's. */
  loadBeforeBench?: string;
}

interface Row {
  query: PairedQuery;
  path: string;
  newsindex: Latency;
  opensearch: Latency;
  agreement: Agreement;
}

interface Agreement {
  niTotal: number;
  osTotal: number;
  /** Facets whose 10 values and counts are the same in both, of those asked; differences beyond NewsIndex's stated error bound. */
  facetsSame?: { same: number; asked: number; differences: string[]; beyondBound: string[] };
  /** The page's ids in the same order (newest-first rows), or how many of the 10 titles are shared (ranked rows). */
  samePage?: boolean;
  sharedTitles?: number;
}

export interface SideBySide {
  loadBefore: string;
  loadAfter: string;
  jdk: Jdk;
  osVersion: string;
  luceneVersion: string;
  corpusArticles: number;
  ingestSeconds: number | undefined;
  niPartitions: number;
  niIndexBytes: number;
  os: LoadFigures;
  rows: Row[];
  throughput: Array<{ name: string; path: string; newsindex: Throughput; opensearch: Throughput }>;
}

const MIN_JAVA = 21;
const WARM_UP_SECONDS = 5;

/** Why the side by side cannot run here, or undefined when it can. */
export function sideBySideUnavailable(o: Pick<SideBySideOptions, "repoRoot" | "script" | "javaHome">): string | undefined {
  const jdk = o.javaHome ? jdkAt(o.javaHome) : findJdk(MIN_JAVA);
  if (!jdk || jdk.major < MIN_JAVA)
    return `no JDK >= ${MIN_JAVA} found${o.javaHome ? ` at ${o.javaHome}` : " under /usr/lib/jvm"}`;
  if (!findUpScript(o.repoRoot, o.script)) return "no shared/opensearch/opensearch-up.sh beside the repository";
  return undefined;
}

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
  const dataDir = join(o.dataRoot, `side-index-${o.articles}`);
  const marker = join(dataDir, "BENCH-CORPUS.json");
  let ingestSeconds: number | undefined;
  if (!(o.reuse && existsSync(marker) && readFileSync(marker, "utf8") === corpus.key)) {
    ingestSeconds = (await ingestPass("clustered", corpusDir, dataDir)).seconds;
    writeFileSync(marker, corpus.key);
  }

  const api = await startChild<{ port: number; key: string }>("./serve-api.ts", [dataDir]);
  const base = join(o.dataRoot, "opensearch");
  const port = await freePort(o.port);
  console.error(`side by side: starting OpenSearch (${jdk.home}, Java ${jdk.major}) on port ${port} in ${base} ...`);
  let stopping: Promise<void> | undefined;
  const node = await startNode({ script, javaHome: jdk.home, base, port, heap: o.heap }).catch(async (error: unknown) => {
    await api.stop();
    throw error;
  });
  // Stop the node on Ctrl-C too: it runs as a daemon and would outlive the bench.
  const onSignal = (signal: NodeJS.Signals): void => {
    stopping ??= node.stop();
    void stopping.finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const osClient = new Client(node.origin, { pipelining: 1 });
  const niClient = new Client(`http://127.0.0.1:${api.info.port}`, { pipelining: 1 });
  try {
    const about = await call<{ version: { number: string; lucene_version: string } }>(osClient, "GET", "/");
    console.error(`side by side: loading the corpus into OpenSearch ${about.version.number} ...`);
    const os = await loadCorpus(osClient, await GkgArticleSource.create(), corpus.files, corpus.key, o.reuse);
    console.error(`  ${os.documents} documents in ${os.seconds.toFixed(1)} s, ${os.segments} segments`);

    const headers = { "x-api-key": api.info.key };
    const niCall = async (path: string): Promise<string> => {
      const response = await niClient.request({ method: "GET", path, headers });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`NewsIndex ${path}: ${response.statusCode} ${text.slice(0, 300)}`);
      return text;
    };
    const osSearch = `/${INDEX}/_search`;
    const osCall = async (body: string): Promise<string> => {
      const response = await osClient.request({
        method: "POST",
        path: osSearch,
        headers: { "content-type": "application/json" },
        body,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`OpenSearch ${body}: ${response.statusCode} ${text.slice(0, 300)}`);
      return text;
    };

    // The JVM compiles its hot paths over the first thousands of searches: run the whole mix on both first.
    console.error("side by side: warming both systems up");
    const warm = performance.now() + WARM_UP_SECONDS * 1000;
    for (let i = 0; performance.now() < warm; i++) {
      const query = PAIRED_QUERIES[i % PAIRED_QUERIES.length] as PairedQuery;
      await Promise.all([niCall(pathOf(query)), osCall(JSON.stringify(query.os))]);
    }
    const rows: Row[] = [];
    for (const query of PAIRED_QUERIES) {
      const path = pathOf(query);
      const body = JSON.stringify(query.os);
      console.error(`side by side: ${query.name}`);
      const agreement = agree(query, JSON.parse(await niCall(path)) as NiResponse, JSON.parse(await osCall(body)) as OsResponse);
      const [newsindex, opensearch] = await timeAlternating(
        () => niCall(path),
        () => osCall(body),
        o.seconds,
      );
      rows.push({ query, path, newsindex, opensearch, agreement });
    }
    const throughput: SideBySide["throughput"] = [];
    for (const query of PAIRED_QUERIES) {
      if (!query.throughput) continue;
      const path = pathOf(query);
      console.error(`side by side: ${query.throughput} at 10 connections`);
      const newsindex = await load(`http://127.0.0.1:${api.info.port}${path}`, headers, 10, o.seconds);
      const opensearch = await load(node.origin + osSearch, {}, 10, o.seconds, JSON.stringify(query.os));
      throughput.push({ name: query.throughput, path, newsindex, opensearch });
    }
    return {
      loadBefore,
      loadAfter: loadAverage(),
      jdk,
      osVersion: about.version.number,
      luceneVersion: about.version.lucene_version,
      corpusArticles: corpus.articles,
      ingestSeconds,
      niPartitions: monthlyIndexes(dataDir),
      niIndexBytes: bytesUnder(join(dataDir, "index")),
      os,
      rows,
      throughput,
    };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await Promise.all([osClient.close(), niClient.close()]);
    await (stopping ?? node.stop());
    await api.stop();
  }
}

interface NiResponse {
  total: number;
  results: Array<{ id: string; title: string | null }>;
  facets?: Record<string, { values: Array<{ value: string; count: number }>; doc_count_error_upper_bound: number }>;
}

interface OsResponse {
  hits: { total: { value: number }; hits: Array<{ _id: string; _source: { title: string | null } }> };
  aggregations?: Record<string, { buckets: Array<{ key: string; doc_count: number }> }>;
}

function agree(query: PairedQuery, ni: NiResponse, os: OsResponse): Agreement {
  const out: Agreement = { niTotal: ni.total, osTotal: os.hits.total.value };
  const niIds = ni.results.map((r) => r.id);
  const osIds = os.hits.hits.map((h) => h._id);
  if (query.params.q === undefined) out.samePage = niIds.join() === osIds.join();
  else {
    // Copies of one page share a title and tie on score, so which copies make the page is arbitrary: compare titles.
    const osTitles = os.hits.hits.map((h) => h._source.title);
    out.sharedTitles = ni.results.filter((r) => {
      const at = osTitles.indexOf(r.title);
      if (at >= 0) osTitles.splice(at, 1);
      return at >= 0;
    }).length;
  }
  if (query.facets) {
    const differences: string[] = [];
    const beyondBound: string[] = [];
    for (const [name, field] of Object.entries(query.facets)) {
      const facet = ni.facets?.[name];
      const a = (facet?.values ?? []).map((v) => `${foldValue(v.value)}=${v.count}`);
      const buckets = os.aggregations?.[name]?.buckets ?? [];
      const b = buckets.map((v) => `${v.key}=${v.doc_count}`);
      if (a.join("\n") === b.join("\n")) continue;
      const bound = facet?.doc_count_error_upper_bound ?? 0;
      differences.push(
        `${name} (${field}, error bound ${bound}): ${a.filter((x) => !b.includes(x)).join(", ")} / ${b.filter((x) => !a.includes(x)).join(", ")}`,
      );
      // A count cut short in one monthly index may be low by up to the bound, never high.
      const exact = new Map(buckets.map((v) => [v.key, v.doc_count]));
      const outside = (facet?.values ?? []).filter((v) => {
        const truth = exact.get(foldValue(v.value));
        return truth !== undefined && (v.count > truth || truth - v.count > bound);
      });
      if (outside.length > 0) beyondBound.push(`${name}: ${outside.map((v) => v.value).join(", ")}`);
    }
    const asked = Object.keys(query.facets).length;
    out.facetsSame = { same: asked - differences.length, asked, differences, beyondBound };
  }
  return out;
}

const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v.toFixed(1));
const mib = (b: number): string => `${Math.round(b / 2 ** 20)} MiB`;
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;

function agreementText(a: Agreement): string {
  const parts = [a.niTotal === a.osTotal ? "totals equal" : `**totals differ by ${a.niTotal - a.osTotal}**`];
  if (a.facetsSame)
    parts.push(
      a.facetsSame.same === a.facetsSame.asked
        ? "facets equal (10 values each, same counts)"
        : `facets differ (NewsIndex / OpenSearch): ${a.facetsSame.differences.join("; ")}; ${a.facetsSame.beyondBound.length === 0 ? "every NewsIndex count within its stated `doc_count_error_upper_bound` of the exact count" : `**beyond NewsIndex's stated error bound**: ${a.facetsSame.beyondBound.join("; ")}`}`,
    );
  if (a.samePage !== undefined) parts.push(a.samePage ? "same page of ids" : "**pages differ**");
  if (a.sharedTitles !== undefined) parts.push(`${a.sharedTitles} of the top 10 titles shared`);
  return parts.join(", ");
}

/** The section of bench/RESULTS.md. */
export function renderSideBySide(r: SideBySide, o: SideBySideOptions, command: string): string {
  // Another full core's worth of work before the run started: the figures measure the contention as much as the engines.
  const busy = Number((o.loadBeforeBench ?? r.loadBefore).split(" / ")[0]) >= 1;
  const rows = r.rows.map(
    (row) =>
      `| ${row.query.name} | \`${row.path}\` | ${row.agreement.niTotal} / ${row.agreement.osTotal} | ${ms(row.newsindex.p50)} / ${ms(row.newsindex.p99)} | ${ms(row.opensearch.p50)} / ${ms(row.opensearch.p99)} | **${ratio(row.newsindex.p50, row.opensearch.p50)}** | ${ratio(row.newsindex.p99, row.opensearch.p99)} |`,
  );
  const throughput = r.throughput.map(
    (t) =>
      `| ${t.name} | \`${t.path}\` | ${Math.round(t.newsindex.requestsPerSecond)} | ${Math.round(t.opensearch.requestsPerSecond)} | **${ratio(t.newsindex.requestsPerSecond, t.opensearch.requestsPerSecond)}** | ${t.newsindex.p50} / ${t.newsindex.p99} | ${t.opensearch.p50} / ${t.opensearch.p99} |`,
  );
  const verdict = (met: boolean, text: string): string =>
    busy ? "not judged: the machine was busy" : met ? "met" : `missed: ${text}`;
  const targets = [
    ...r.rows.map((row) => {
      const x = row.newsindex.p50 / row.opensearch.p50;
      return `| NewsIndex / OpenSearch p50 <= 1.5: ${row.query.name} | ${x.toFixed(2)}x | ${verdict(x <= 1.5, `${(x / 1.5).toFixed(1)}x over (${ms(row.newsindex.p50 - 1.5 * row.opensearch.p50)} ms above 1.5x)`)} |`;
    }),
    ...r.throughput.map((t) => {
      const x = t.newsindex.requestsPerSecond / t.opensearch.requestsPerSecond;
      return `| throughput at 10 connections >= 0.5x OpenSearch: ${t.name} | ${x.toFixed(2)}x | ${verdict(x >= 0.5, `${(0.5 / x).toFixed(1)}x short`)} |`;
    }),
  ];
  return [
    "## Side by side with OpenSearch",
    "",
    `Machine: ${machine()}; OpenSearch ${r.osVersion} (Lucene ${r.luceneVersion}) on Java ${r.jdk.major} (\`${r.jdk.home}\`), heap ${o.heap}, started by \`shared/opensearch/opensearch-up.sh\`. Load average before / after (1, 5, 15 min): ${r.loadBefore} → ${r.loadAfter}.${busy ? " **The machine was busy with other work during this run** (see the load average before it started): both systems shared the cores with it, so the latencies measure that contention as much as the engines, and the targets below are not judged. Re-run on a quiet machine." : ""}`,
    `Command: \`${command}\`.`,
    "",
    `Corpus: ${r.corpusArticles.toLocaleString("en")} articles from the generator above (${o.months} months from 2024-01, seed 1) in both systems. NewsIndex: ingested through its pipeline with story clustering${r.ingestSeconds === undefined ? " (kept from an earlier run, --reuse)" : ` in ${r.ingestSeconds.toFixed(0)} s`}, ${r.niPartitions} monthly indexes, ${mib(r.niIndexBytes)}. OpenSearch: ${r.os.documents.toLocaleString("en")} documents through \`_bulk\`${r.os.loaded ? ` in ${r.os.seconds.toFixed(0)} s` : " (kept from an earlier run, --reuse)"}, 1 shard, no replica, ${r.os.segments} segment${r.os.segments === 1 ? "" : "s"} as its merge policy left them, ${mib(r.os.storeBytes)}. Same fields: title and entity names (persons, organizations, other names) analysed for keyword search (split on anything but letters and digits, lower-cased, accents folded; title weighted 10 to 1), filter and facet fields as keywords folded to lower case, \`published_at\` a date; the OpenSearch \`_source\` is the Article a NewsIndex hit returns.`,
    "",
    `Latency in ms, p50 / p99: one keep-alive client per system (undici), calls alternating NewsIndex, OpenSearch, NewsIndex, ..., ${o.seconds} s per query after a ${WARM_UP_SECONDS} s warm-up of the whole mix and 1 s of the query; response bodies read in full. NewsIndex through its HTTP API (key, credits, JSON of 10 full articles); OpenSearch \`POST /${INDEX}/_search\` with \`size: 10\` and exact totals (\`track_total_hits: true\`, as NewsIndex counts).`,
    "",
    "| query | NewsIndex path | matches, NewsIndex / OpenSearch | NewsIndex p50 / p99 | OpenSearch p50 / p99 | NewsIndex / OpenSearch, p50 | p99 |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    `Throughput at 10 connections (autocannon, ${o.seconds} s each; its histogram keeps whole ms):`,
    "",
    "| workload | NewsIndex path | NewsIndex req/s | OpenSearch req/s | NewsIndex / OpenSearch | NewsIndex p50 / p99 | OpenSearch p50 / p99 |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...throughput,
    "",
    "Agreement (first page of each query, both systems):",
    "",
    ...r.rows.map((row) => `- ${row.query.name}: ${agreementText(row.agreement)}.`),
    "",
    "Where the two may legitimately differ: ranked pages (BM25 in FTS5 scores the row with column weights, OpenSearch's `cross_fields` blends per-field BM25 with its own length norms, so ties and near-ties order differently, and the corpus repeats each real headline, so the copies that fill a page are an arbitrary pick among equals: the top-10 title overlap above is information, not a check); facet counts, which NewsIndex merges from each monthly index's top values (several here, like shards: a value cut from one index's list is undercounted, and the facet says so with `approximate: true` and `doc_count_error_upper_bound`) where OpenSearch's single shard counts exactly; totals would differ where the tokenizers split a word differently (FTS5 `unicode61` against the pattern tokenizer above, e.g. for characters outside letters and digits that Unicode classes differently), and facet values where folding differs (NewsIndex also applies NFC).",
    "",
    "OpenSearch request bodies:",
    "",
    ...r.rows.map((row) => `- ${row.query.name}: \`${JSON.stringify(row.query.os)}\``),
    "",
    "### Targets (side by side)",
    "",
    "| target | measured | |",
    "|---|---:|---|",
    ...targets,
    "",
  ].join("\n");
}
