import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import { openSearchClient } from "../../src/adapters/opensearch/client.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { readArticles } from "../../test/support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../../test/support/test-server.js";
import { loadAverage, machine } from "../scale/measure.js";

// Bulk ingest into the scaled shape's index, the write alone (parsing,
// deriving, clustering and embedding excluded): the 1,360 real articles of the
// bundled sample, copied under new ids into `--months` monthly indices until
// `--articles`, written by OpenSearchIndex.write in batches of `--batch` (the
// ingest batch), then the index size per article after a merge to one segment.
//
//   flock /tmp/newsindex-bench.lock nice -n 5 node --import tsx bench/opensearch/bulk-ingest.ts \
//     --url http://127.0.0.1:19200 --articles 50000 --months 3 --batch 2000 [--refresh off]

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const url = option("url", "http://127.0.0.1:19200");
const total = Number(option("articles", "50000"));
const months = Number(option("months", "3"));
const batch = Number(option("batch", "2000"));
const refresh = option("refresh", "on") !== "off";
const prefix = `bench-bulk-${Date.now()}`;

const sample = await readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery]);
/** The n-th copy: a sample article under a new id in one of the months (2025-01 onwards), its story its own. */
function copy(n: number): ArticleDetail {
  const a = sample[n % sample.length] as ArticleDetail;
  const month = n % months;
  const stamp = `2025${String(month + 1).padStart(2, "0")}01${String(Math.floor(n / 3600) % 24).padStart(2, "0")}${String(Math.floor(n / 60) % 60).padStart(2, "0")}${String(n % 60).padStart(2, "0")}`;
  const id = `${stamp}-B${n}`;
  return { ...a, id, collected_at: stamp, published_at: stamp, story_id: id };
}

const client = openSearchClient({ urls: [url], requestTimeoutMs: 120_000 });
const index = new OpenSearchIndex(client, { prefix, refreshOnWrite: refresh });
const loadBefore = loadAverage();
try {
  // Create the monthly indices first: index creation is not ingest.
  await index.write(Array.from({ length: months }, (_, m) => copy(m)));
  let written = months;
  const started = performance.now();
  while (written < total) {
    const articles = Array.from({ length: Math.min(batch, total - written) }, (_, i) => copy(written + i));
    const result = await index.write(articles);
    if (result.inserted !== articles.length) throw new Error(`expected ${articles.length} inserted, got ${result.inserted}`);
    written += articles.length;
  }
  const pattern = index.names.articlePattern;
  if (!refresh) await client.indices.refresh({ index: pattern });
  const seconds = (performance.now() - started) / 1000;
  await client.indices.forcemerge({ index: pattern, max_num_segments: 1 });
  await client.indices.refresh({ index: pattern });
  const { body: stats } = await client.indices.stats({ index: pattern, metric: ["store"] });
  const bytes = (stats._all as { primaries: { store: { size_in_bytes: number } } }).primaries.store.size_in_bytes;
  // Articles, not Lucene documents (each amount is a nested document of its own).
  const docs = await index.count();
  console.log(`Machine: ${machine()}. Load average before / after: ${loadBefore} -> ${loadAverage()}.`);
  console.log(
    `bulk ingest: ${total - months} articles in ${seconds.toFixed(1)} s = ${Math.round((total - months) / seconds)} records/s ` +
      `(batches of ${batch}, ${months} monthly indices, ${refresh ? "refresh per request" : "one refresh at the end"})`,
  );
  console.log(
    `index size: ${docs} articles, ${(bytes / 2 ** 20).toFixed(1)} MiB, ${Math.round(bytes / docs)} bytes per article (one segment, no vectors)`,
  );
} finally {
  const { body } = await client.indices.get({ index: `${prefix}-*` });
  const names = Object.keys(body);
  if (names.length > 0) await client.indices.delete({ index: names.join(",") });
  await client.indices.deleteIndexTemplate({ name: index.names.articleTemplate }, { ignore: [404] });
  await client.close();
}
