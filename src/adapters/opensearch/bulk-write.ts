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

/** A _bulk request body stays under this many bytes (well below a node's 100 MB limit, and kind to its heap). */
const MAX_BULK_BYTES = 8 * 1024 * 1024;

interface BulkItem {
  create?: { status: number; error?: { type?: string; reason?: string } };
}

export class BulkWriteError extends Error {}

export async function bulkCreate(
  client: Client,
  names: IndexNames,
  articles: readonly ArticleDetail[],
  refresh = true,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { inserted: 0, unchanged: 0 };
  let lines: string[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    if (lines.length === 0) return;
    const body = `${lines.join("\n")}\n`;
    lines = [];
    bytes = 0;
    // With `refresh`, visible to searches when the write returns, as the port promises (an index refresh per
    // request). The body goes as the NDJSON text already made (the client passes a string through unserialised).
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
  for (const article of articles) {
    const action = JSON.stringify({ create: { _index: names.articleIndex(monthOf(article.id)), _id: article.id } });
    const document = JSON.stringify(toDocument(article));
    if (bytes + action.length + document.length > MAX_BULK_BYTES) await flush();
    lines.push(action, document);
    bytes += action.length + document.length + 2;
  }
  await flush();
  return outcome;
}
