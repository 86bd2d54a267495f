import { Client } from "@opensearch-project/opensearch";

// One client per process for the scaled shape's index. Several node URLs are
// used round-robin, and a node that stops answering is set aside and retried
// later by the client's connection pool, so one lost node does not fail calls
// the others can answer.

export interface OpenSearchOptions {
  /** Node URLs (config `opensearchUrls`). */
  urls: readonly string[];
  /** Milliseconds before a request is abandoned (and retried on another node). */
  requestTimeoutMs?: number;
}

export function openSearchClient(options: OpenSearchOptions): Client {
  if (options.urls.length === 0) throw new Error("openSearchClient: no node URL");
  return new Client({
    nodes: [...options.urls],
    // A search is idempotent; a _bulk of index operations with their ids is too, so a retry never duplicates.
    maxRetries: 2,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    // Keep connections open between calls: a search is a few ms, a TCP handshake would be a visible share of it.
    agent: { keepAlive: true, maxSockets: 64 },
    // Every key in the node's answers is OpenSearch's own or a name this service chose (strict mappings, its own
    // aggregation names), so scanning each answer's whole text for "__proto__" and "constructor" keys guards
    // nothing here, and it was a visible share of the API's CPU per search.
    disablePrototypePoisoningProtection: true,
  });
}
