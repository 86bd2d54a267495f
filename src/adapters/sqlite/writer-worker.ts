import { serveRequests } from "../threads/worker-rpc.js";
import { openForWrite } from "./open-for-write.js";
import type { PartitionWriter } from "./partition-writer.js";
import type { PreparedArticle } from "./prepared-article.js";

// The index writer thread: owns the write connections of the monthly indexes
// and runs each batch's transaction, so the thread that parses the next batch
// is not held up by SQLite. Articles arrive prepared (prepared-article.ts).

export type WriterRequest =
  | { kind: "write"; month: string; path: string; articles: PreparedArticle[] }
  | { kind: "relabel"; month: string; path: string; storyId: string; articleIds: string[] }
  | { kind: "close" };

const partitions = new Map<string, PartitionWriter>();

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

/** Runs on the writer thread (writer-thread.ts). */
export function serveWriter(): void {
  serveRequests(handle);
}
