import { Client } from "undici";
import { toArticle, type ArticleDetail } from "../../src/domain/article.js";
import type { ArticleSource } from "../../src/ports/article-source.js";

// The generated corpus as an OpenSearch index with the fields NewsIndex gives
// the same queries: title and entity names analysed for keyword search (split
// on anything but letters and digits, lower-cased, accents folded, as the FTS5
// `unicode61 remove_diacritics 2` tokenizer does), the filter and facet fields
// as keywords folded to lower case (as NewsIndex folds them), and published_at
// as a date. One shard, no replica, sorted on disk newest first (published_at,
// then id, as the scaled shape's monthly indices are), so a newest-first browse
// reads the first documents and stops. `_source` is the Article a /search hit
// carries, so both systems return the same documents.

export const INDEX = "newsindex-bench";

/** Bump when the index body changes: an index kept from an earlier layout is rebuilt, not reused. */
const LAYOUT = 2;

const FOLDED = { type: "keyword", normalizer: "folded" } as const;

const INDEX_BODY = {
  settings: {
    number_of_shards: 1,
    number_of_replicas: 0,
    refresh_interval: "-1",
    sort: { field: ["published_at", "id"], order: ["desc", "desc"] },
    analysis: {
      tokenizer: { words: { type: "pattern", pattern: "[^\\p{L}\\p{N}]+" } },
      analyzer: { words: { type: "custom", tokenizer: "words", filter: ["lowercase", "asciifolding"] } },
      normalizer: { folded: { type: "custom", filter: ["lowercase", "trim"] } },
    },
  },
  mappings: {
    dynamic: false,
    _source: { excludes: ["entities"] },
    properties: {
      id: { type: "keyword" },
      title: { type: "text", analyzer: "words" },
      entities: { type: "text", analyzer: "words" },
      published_at: { type: "date", format: "yyyyMMddHHmmss" },
      source: FOLDED,
      source_type: FOLDED,
      publisher_country: FOLDED,
      language: FOLDED,
      persons: FOLDED,
      organizations: FOLDED,
      topics: FOLDED,
      countries: FOLDED,
      locations: FOLDED,
      authors: FOLDED,
    },
  },
};

/** Persons, organizations and other names, once each, as NewsIndex's keyword search reads them. */
function entityText(a: ArticleDetail): string {
  return [...new Set([...a.persons, ...a.organizations, ...a.names].map((v) => v.toLowerCase()))].join(" ; ");
}

export function osDocument(a: ArticleDetail): Record<string, unknown> {
  return { ...toArticle(a), published_at: a.published_at ?? a.collected_at ?? a.id.slice(0, 14), entities: entityText(a) };
}

export interface LoadFigures {
  documents: number;
  seconds: number;
  /** False when an index of the same corpus was already there and kept (--reuse). */
  loaded: boolean;
  segments: number;
  storeBytes: number;
}

export async function call<T>(
  client: Client,
  method: "GET" | "PUT" | "POST" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const response = await client.request({
    method,
    path,
    headers:
      payload === undefined ? {} : { "content-type": typeof body === "string" ? "application/x-ndjson" : "application/json" },
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`OpenSearch ${method} ${path}: ${response.statusCode} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

async function existingCorpus(client: Client): Promise<{ corpus?: string; documents?: number; layout?: number } | undefined> {
  const response = await client.request({ method: "GET", path: `/${INDEX}/_mapping` });
  const text = await response.body.text();
  if (response.statusCode === 404) return undefined;
  if (response.statusCode !== 200)
    throw new Error(`OpenSearch GET /${INDEX}/_mapping: ${response.statusCode} ${text.slice(0, 300)}`);
  const mapping = JSON.parse(text) as Record<
    string,
    { mappings?: { _meta?: { corpus?: string; documents?: number; layout?: number } } }
  >;
  return mapping[INDEX]?.mappings?._meta ?? {};
}

async function shape(client: Client): Promise<Pick<LoadFigures, "documents" | "segments" | "storeBytes">> {
  const count = await call<{ count: number }>(client, "GET", `/${INDEX}/_count`);
  const stats = await call<{ _all: { primaries: { segments: { count: number }; store: { size_in_bytes: number } } } }>(
    client,
    "GET",
    `/${INDEX}/_stats/segments,store`,
  );
  return {
    documents: count.count,
    segments: stats._all.primaries.segments.count,
    storeBytes: stats._all.primaries.store.size_in_bytes,
  };
}

/**
 * Loads every article of `files` with _bulk (ids are the articles' own, so a repeated id is stored once, as in
 * NewsIndex). With `reuse`, an index already holding the same corpus is kept.
 */
export async function loadCorpus(
  client: Client,
  source: ArticleSource,
  files: readonly string[],
  corpusKey: string,
  reuse: boolean,
): Promise<LoadFigures> {
  const existing = await existingCorpus(client);
  if (reuse && existing?.corpus === corpusKey && existing.layout === LAYOUT) {
    const kept = await shape(client);
    if (kept.documents === existing.documents) return { ...kept, seconds: 0, loaded: false };
  }
  if (existing) await call(client, "DELETE", `/${INDEX}`);
  await call(client, "PUT", `/${INDEX}`, INDEX_BODY);

  const started = performance.now();
  let batch: string[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const result = await call<{ errors: boolean; items: Array<{ index?: { error?: unknown } }> }>(
      client,
      "POST",
      `/${INDEX}/_bulk`,
      `${batch.join("\n")}\n`,
    );
    if (result.errors) {
      const failed = result.items.find((i) => i.index?.error)?.index?.error;
      throw new Error(`OpenSearch _bulk rejected documents: ${JSON.stringify(failed).slice(0, 500)}`);
    }
    batch = [];
  };
  for (const file of files) {
    for await (const record of source.read(file)) {
      if (!record.ok) continue;
      batch.push(JSON.stringify({ index: { _id: record.article.id } }), JSON.stringify(osDocument(record.article)));
      if (batch.length >= 4000) await flush();
    }
  }
  await flush();
  await call(client, "POST", `/${INDEX}/_refresh`);
  const seconds = (performance.now() - started) / 1000;
  const figures = await shape(client);
  await call(client, "PUT", `/${INDEX}/_mapping`, {
    _meta: { corpus: corpusKey, documents: figures.documents, layout: LAYOUT },
  });
  return { ...figures, seconds, loaded: true };
}
