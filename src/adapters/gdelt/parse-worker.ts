import type { SourceRecord } from "../../ports/article-source.js";
import { serveRequests } from "../threads/worker-rpc.js";
import { GkgArticleSource } from "./gkg-source.js";

// The parse thread's side (parse-thread.ts): reads one file at a time with
// the GKG source (gunzip, split, parse, map) and hands its records over in
// chunks, so the ingest thread spends none of its time on the format. The
// file read next, when named, has its first chunk read while the ingest
// thread finishes the current one.

/** `open` answers the file's first chunk (one round trip fewer per file); `then` names the file read after it. */
export type ParseRequest =
  { kind: "open"; path: string; max: number; then?: string } | { kind: "next"; max: number } | { kind: "close" };

export interface ParseChunk {
  records: SourceRecord[];
  /** The file has no more records. */
  done: boolean;
}

interface OpenFile {
  path: string;
  records: AsyncIterator<SourceRecord>;
  /** Its first chunk, read ahead; undefined once taken. */
  first?: Promise<ParseChunk>;
}

const source = GkgArticleSource.create();
// A failed load fails the first file, not the thread's start.
source.catch(() => undefined);
let reading: OpenFile | undefined;
let ahead: OpenFile | undefined;

async function open(path: string): Promise<OpenFile> {
  return { path, records: (await source).read(path)[Symbol.asyncIterator]() };
}

async function take(file: OpenFile, max: number): Promise<ParseChunk> {
  const records: SourceRecord[] = [];
  while (records.length < max) {
    const next = await file.records.next();
    if (next.done === true) return { records, done: true };
    records.push(next.value);
  }
  return { records, done: false };
}

/** Closes a file left part read (its reader stopped early, or it was read ahead and not asked for). */
async function drop(file: OpenFile | undefined): Promise<void> {
  if (file === undefined) return;
  await file.first?.catch(() => undefined);
  await file.records.return?.();
}

async function handle(request: ParseRequest): Promise<ParseChunk | null> {
  if (request.kind === "next") {
    if (reading === undefined) return { records: [], done: true };
    const chunk = await take(reading, request.max);
    if (chunk.done) reading = undefined;
    return chunk;
  }
  await drop(reading);
  reading = undefined;
  if (request.kind === "close") {
    await drop(ahead);
    ahead = undefined;
    return null;
  }
  let file: OpenFile;
  if (ahead?.path === request.path) file = ahead;
  else {
    await drop(ahead);
    file = await open(request.path);
  }
  ahead = undefined;
  const first = file.first ?? take(file, request.max);
  file.first = undefined;
  if (request.then !== undefined) {
    const next = await open(request.then);
    next.first = take(next, request.max);
    // Its failure is the next read's to report.
    next.first.catch(() => undefined);
    ahead = next;
  }
  const chunk = await first;
  if (!chunk.done) reading = file;
  return chunk;
}

/** Runs on the parse thread. */
export function serveParsing(): void {
  serveRequests(handle);
}
