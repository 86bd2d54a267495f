import { parentPort } from "node:worker_threads";
import type { ArticlePartition } from "./article-partition.js";
import { openForWrite } from "./open-for-write.js";
import type { PreparedArticle } from "./prepared-article.js";

// The index writer thread: owns the write connections of the monthly indexes
// and runs each batch's transaction, so the thread that parses the next batch
// is not held up by SQLite. Articles arrive prepared (prepared-article.ts).

export type WriterRequest =
  | { kind: "write"; id: number; month: string; path: string; articles: PreparedArticle[] }
  | { kind: "relabel"; id: number; month: string; path: string; storyId: string; articleIds: string[] }
  | { kind: "close"; id: number };

export type WriterReply = { id: number; inserted: number } | { id: number; error: string };

const partitions = new Map<string, ArticlePartition>();

function handle(request: WriterRequest): number {
  if (request.kind === "close") {
    for (const partition of partitions.values()) partition.close();
    partitions.clear();
    return 0;
  }
  let partition = partitions.get(request.month);
  if (!partition) {
    partition = openForWrite(request.month, request.path);
    partitions.set(request.month, partition);
  }
  try {
    return request.kind === "write" ? partition.write(request.articles) : partition.relabel(request.storyId, request.articleIds);
  } catch (error) {
    // A connection that failed a write is not trusted with the next one.
    partitions.delete(request.month);
    partition.close();
    throw error;
  }
}

parentPort?.on("message", (request: WriterRequest) => {
  let reply: WriterReply;
  try {
    reply = { id: request.id, inserted: handle(request) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
