import type { Client } from "@opensearch-project/opensearch";
import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { readArticles } from "../../test/support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../../test/support/test-server.js";

// Bulk ingest into the scaled shape's index, the write alone (parsing,
// deriving, clustering and embedding excluded): the real articles of the
// bundled sample, copied under new ids into `months` monthly indices until
// `total`, written by OpenSearchIndex.write in batches of `batch` (the ingest
// batch), inside OpenSearchIndex.bulkLoad as ingest makes them, or each write
// refreshed (`refreshEach`: the port's promise, searchable on return).

export interface BulkRate {
  articles: number;
  seconds: number;
  perSecond: number;
}

/** The sample's articles, read once; `copyOf(sample, n, months)` is the n-th copy. */
export function sampleArticles(): Promise<ArticleDetail[]> {
  return readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery]);
}

/** The n-th copy: a sample article under a new id in one of the months (2025-01 onwards), its story its own. */
export function copyOf(sample: readonly ArticleDetail[], n: number, months: number): ArticleDetail {
  const a = sample[n % sample.length] as ArticleDetail;
  const month = n % months;
  const stamp = `2025${String(month + 1).padStart(2, "0")}01${String(Math.floor(n / 3600) % 24).padStart(2, "0")}${String(Math.floor(n / 60) % 60).padStart(2, "0")}${String(n % 60).padStart(2, "0")}`;
  const id = `${stamp}-B${n}`;
  return { ...a, id, collected_at: stamp, published_at: stamp, story_id: id };
}

/** Writes `total` copies under `prefix` and times it; the monthly indices are created first (not ingest). */
export async function bulkRate(
  client: Client,
  o: { prefix: string; sample: readonly ArticleDetail[]; total: number; months: number; batch: number; refreshEach?: boolean },
): Promise<{ rate: BulkRate; index: OpenSearchIndex }> {
  const index = new OpenSearchIndex(client, { prefix: o.prefix });
  await index.write(Array.from({ length: o.months }, (_, m) => copyOf(o.sample, m, o.months)));
  let written = o.months;
  const started = performance.now();
  const load = async (): Promise<void> => {
    while (written < o.total) {
      const articles = Array.from({ length: Math.min(o.batch, o.total - written) }, (_, i) =>
        copyOf(o.sample, written + i, o.months),
      );
      const result = await index.write(articles);
      if (result.inserted !== articles.length) throw new Error(`expected ${articles.length} inserted, got ${result.inserted}`);
      written += articles.length;
    }
  };
  if (o.refreshEach) await load();
  else await index.bulkLoad(load);
  const seconds = (performance.now() - started) / 1000;
  if ((await index.count()) !== o.total) throw new Error(`expected ${o.total} searchable when the load returned`);
  const articles = o.total - o.months;
  return { rate: { articles, seconds, perSecond: articles / seconds }, index };
}

/** Removes what a bulk rate wrote: its indices and its template. */
export async function dropBulk(client: Client, index: OpenSearchIndex): Promise<void> {
  const { body } = await client.indices.get({ index: `${index.names.prefix}-*` });
  const names = Object.keys(body);
  if (names.length > 0) await client.indices.delete({ index: names.join(",") });
  await client.indices.deleteIndexTemplate({ name: index.names.articleTemplate }, { ignore: [404] });
}
