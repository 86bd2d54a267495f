import type { Client } from "@opensearch-project/opensearch";
import type { Bulk_RequestBody } from "@opensearch-project/opensearch/api/_core/bulk.js";
import type { ArticleDetail } from "../../domain/article.js";
import { monthOf } from "../../shared/timestamps.js";
import { toDocument } from "./article-document.js";
import type { IndexNames } from "./index-names.js";

// Articles into their monthly indices with `_bulk`. Each is a `create` under
// its own id, so an id already present is left as it was (a version conflict,
// counted `unchanged`): ingesting a file twice stores each article once.

export interface BulkOutcome {
  inserted: number;
  unchanged: number;
}

/**
 * A _bulk request body stays under this many bytes (well below a node's 100 MB limit, and kind to its heap); an
 * ingest batch of 2,000 articles makes about two of them, sent together (IN_FLIGHT).
 */
const MAX_BULK_BYTES = 4 * 1024 * 1024;
/** _bulk requests under way at once: the node parses and indexes one while the next one arrives. */
const IN_FLIGHT = 2;

interface BulkItem {
  create?: { status: number; error?: { type?: string; reason?: string } };
}

export class BulkWriteError extends Error {}

/** The months `articles` are written into (their ids' collection months). */
export function monthsOf(articles: readonly ArticleDetail[]): Set<string> {
  return new Set(articles.map((a) => monthOf(a.id)));
}

/**
 * Writes `articles`. With `refresh`, they are visible to searches when this returns, as the port promises (one index
 * refresh per request); without it (a bulk load, see OpenSearchIndex.bulkLoad) the caller refreshes once at the end.
 */
export async function bulkCreate(
  client: Client,
  names: IndexNames,
  articles: readonly ArticleDetail[],
  refresh = true,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { inserted: 0, unchanged: 0 };
  const send = async (body: string): Promise<void> => {
    // The body goes as the NDJSON text already made (the client passes a string through unserialised).
    const { body: result } = await client.bulk({ body: body as unknown as Bulk_RequestBody, refresh });
    const items = result.items as unknown as BulkItem[];
    for (const item of items) {
      const status = item.create?.status ?? 0;
      if (status === 201) outcome.inserted++;
      else if (status === 409) outcome.unchanged++;
      else {
        const error = item.create?.error;
        throw new BulkWriteError(`OpenSearch refused an article (${status}): ${error?.type ?? "error"}: ${error?.reason ?? ""}`);
      }
    }
  };
  const pending = new Set<Promise<void>>();
  const failures: unknown[] = [];
  const dispatch = async (body: string): Promise<void> => {
    if (pending.size >= IN_FLIGHT) await Promise.race(pending);
    if (failures.length > 0) return;
    const request = send(body).then(
      () => undefined,
      (error: unknown) => void failures.push(error),
    );
    const tracked = request.finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  let lines: string[] = [];
  let bytes = 0;
  for (const article of articles) {
    const action = JSON.stringify({ create: { _index: names.articleIndex(monthOf(article.id)), _id: article.id } });
    const document = JSON.stringify(toDocument(article));
    if (bytes + action.length + document.length > MAX_BULK_BYTES && lines.length > 0) {
      await dispatch(`${lines.join("\n")}\n`);
      lines = [];
      bytes = 0;
      if (failures.length > 0) break;
    }
    lines.push(action, document);
    bytes += action.length + document.length + 2;
  }
  if (lines.length > 0 && failures.length === 0) await dispatch(`${lines.join("\n")}\n`);
  await Promise.all(pending);
  if (failures.length > 0) throw failures[0];
  return outcome;
}
