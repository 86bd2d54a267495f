import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import { openSearchClient } from "../../src/adapters/opensearch/client.js";
import { toDocument } from "../../src/adapters/opensearch/article-document.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { loadAverage, machine } from "../scale/measure.js";
import { bulkRate, copyOf, dropBulk, sampleArticles } from "./bulk-rate.js";

// Bulk ingest into the scaled shape's index, the write alone (parsing,
// deriving, clustering and embedding excluded): the 1,360 real articles of the
// bundled sample, copied under new ids into `--months` monthly indices until
// `--articles`, written by OpenSearchIndex.write in batches of `--batch` (the
// ingest batch). Each `--modes` entry runs in turn under its own prefix:
//   write      each write refreshed (the port's promise: searchable on return)
//   bulk-load  the writes inside OpenSearchIndex.bulkLoad, as ingest makes them
// Then the index size per article after a merge to one segment (last mode's indices), and the
// CPU the bench process spent building request bodies (toDocument + JSON) per article.
//
//   flock /tmp/newsindex-bench.lock nice -n 5 node --import tsx bench/opensearch/bulk-ingest.ts \
//     --url http://127.0.0.1:19400 --articles 50000 --months 3 --batch 2000 --modes write,bulk-load

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

// The bench's own node (as the side by side starts it), never the shared test node.
const url = option("url", "http://127.0.0.1:19400");
const total = Number(option("articles", "50000"));
const months = Number(option("months", "3"));
const batch = Number(option("batch", "2000"));
const modes = option("modes", "write,bulk-load").split(",");
for (const mode of modes)
  if (mode !== "write" && mode !== "bulk-load") throw new Error(`--modes: write or bulk-load, not ${mode}`);

const sample = await sampleArticles();
const copy = (n: number): ArticleDetail => copyOf(sample, n, months);

const client = openSearchClient({ urls: [url], requestTimeoutMs: 120_000 });
const loadBefore = loadAverage();
const stamp = Date.now();
const indexes: OpenSearchIndex[] = [];
const lines: string[] = [];
try {
  for (const mode of modes) {
    const { rate, index } = await bulkRate(client, {
      prefix: `bench-bulk-${mode}-${stamp}`,
      sample,
      total,
      months,
      batch,
      refreshEach: mode === "write",
    });
    indexes.push(index);
    const seconds = rate.seconds;
    lines.push(
      `bulk ingest (${mode}): ${total - months} articles in ${seconds.toFixed(1)} s = ${Math.round((total - months) / seconds)} records/s ` +
        `(batches of ${batch}, ${months} monthly indices, load average now ${loadAverage()})`,
    );
  }
  // What the bench process itself spends per article on request bodies (the node's share is the rest).
  const cpu = process.cpuUsage();
  const n = Math.min(total, 20_000);
  let chars = 0;
  for (let i = 0; i < n; i++) chars += JSON.stringify(toDocument(copy(i))).length;
  const used = process.cpuUsage(cpu);
  lines.push(
    `request bodies: ${(((used.user + used.system) / n) | 0).toString()} µs CPU per article in this process, ${Math.round(chars / n)} characters of JSON`,
  );
  const last = indexes.at(-1) as OpenSearchIndex;
  const pattern = last.names.articlePattern;
  await client.indices.forcemerge({ index: pattern, max_num_segments: 1 });
  await client.indices.refresh({ index: pattern });
  const { body: stats } = await client.indices.stats({ index: pattern, metric: ["store", "docs"] });
  const primaries = (stats._all as { primaries: { store: { size_in_bytes: number }; docs: { count: number } } }).primaries;
  // Articles, not Lucene documents (each amount is a nested document of its own).
  const docs = await last.count();
  lines.push(
    `index size: ${docs} articles (${primaries.docs.count} Lucene documents), ${(primaries.store.size_in_bytes / 2 ** 20).toFixed(1)} MiB, ` +
      `${Math.round(primaries.store.size_in_bytes / docs)} bytes per article (one segment, no vectors)`,
  );
  console.log(`Machine: ${machine()}. Load average before / after: ${loadBefore} -> ${loadAverage()}.`);
  for (const line of lines) console.log(line);
} finally {
  for (const index of indexes) await dropBulk(client, index);
  await client.close();
}
