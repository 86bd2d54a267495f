import type { SourceRecord } from "../../ports/article-source.js";
import { serveRequests } from "../threads/worker-rpc.js";
import { GkgArticleSource } from "./gkg-source.js";

// The parse thread's side (parse-thread.ts): reads one file at a time with
// the GKG source (gunzip, split, parse, map) and hands its records over in
// chunks, so the ingest thread spends none of its time on the format.

/** `open` answers the file's first chunk: one round trip fewer per file. */
export type ParseRequest = { kind: "open"; path: string; max: number } | { kind: "next"; max: number } | { kind: "close" };

export interface ParseChunk {
  records: SourceRecord[];
  /** The file has no more records. */
  done: boolean;
}

const source = GkgArticleSource.create();
// A failed load fails the first file, not the thread's start.
source.catch(() => undefined);
let reading: AsyncIterator<SourceRecord> | undefined;

async function handle(request: ParseRequest): Promise<ParseChunk | null> {
  if (request.kind !== "next") {
    // A file left part read (its reader stopped early) is closed before the next is opened.
    await reading?.return?.();
    reading = request.kind === "open" ? (await source).read(request.path)[Symbol.asyncIterator]() : undefined;
    if (request.kind === "close") return null;
  }
  if (reading === undefined) return { records: [], done: true };
  const records: SourceRecord[] = [];
  while (records.length < request.max) {
    const next = await reading.next();
    if (next.done === true) {
      reading = undefined;
      return { records, done: true };
    }
    records.push(next.value);
  }
  return { records, done: false };
}

/** Runs on the parse thread. */
export function serveParsing(): void {
  serveRequests(handle);
}
