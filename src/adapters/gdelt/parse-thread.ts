import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { ArticleSource, ReadOptions, SourceRecord } from "../../ports/article-source.js";
import { besideModule, WorkerRpc } from "../threads/worker-rpc.js";
import { sniffCompressionSync } from "./input-stream.js";
import type { ParseChunk, ParseRequest } from "./parse-worker.js";

// GKG files parsed on a thread of their own (parse-worker.ts), so the ingest
// thread only clusters, prepares rows and hands them to the writer. The thread
// reads one chunk ahead, and the first chunk of the file read next. It starts
// on the first file big enough to pay for its start and stays until
// `release`; smaller files are read here, by `inline`. Only a machine with a
// core for it has one (withParseThread).

/** Records per hand-over: fewer round trips, and memory still flat (one chunk read ahead). */
const CHUNK = 1000;
/**
 * Compressed bytes from which a file goes to the thread. Starting it costs about half a second of CPU (its module
 * graph and its own copy of the publisher-country tables) where parsing and mapping take about 110 µs a record: below
 * some 1,000 records (4 MiB of gzip) a file is parsed here in a fraction of that, so a translation slot, a test's
 * fixture or a small backfill file never starts one.
 */
export const PARSE_THREAD_MIN_BYTES = 4 << 20;
/** GKG text deflates about 3 to 1 (the bundled 2023 batch: 11.9 MB in 3.8 MB of gzip): a plain file counts a third. */
const PLAIN_PER_COMPRESSED = 3;
/**
 * Cores from which ingest parses on a thread: the ingest thread, the clustering thread and the index writer keep
 * three busy. On two cores the thread changed nothing in records/s (95k corpus, bench/RESULTS.md "Ingest through the
 * whole pipeline") and took about 10% more CPU for the hand-over, which the API's read threads then lack.
 */
export const PARSE_THREAD_MIN_CORES = 4;
/** The thread's young generation (MiB): a chunk's short-lived strings die there instead of being promoted and marked. */
const YOUNG_GENERATION_MB = 64;

export class ParseThreadSource implements ArticleSource {
  private readonly thread = new WorkerRpc<ParseRequest, ParseChunk | null>(
    {
      module: besideModule(import.meta.url, "parse-worker"),
      exportName: "serveParsing",
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    },
    "GKG parse thread",
  );

  private readonly minBytes: number;
  private readonly chunk: number;

  /** `minBytes`: compressed size from which a file goes to the thread; `chunk`: records per hand-over. */
  constructor(
    private readonly inline: ArticleSource,
    options: { minBytes?: number; chunk?: number } = {},
  ) {
    this.minBytes = options.minBytes ?? PARSE_THREAD_MIN_BYTES;
    this.chunk = options.chunk ?? CHUNK;
  }

  async *read(path: string, options: ReadOptions = {}): AsyncGenerator<SourceRecord> {
    if (sizeOf(path) < this.minBytes) {
      yield* this.inline.read(path);
      return;
    }
    // The file read next is read ahead on the thread when it goes there too.
    const then = options.next !== undefined && sizeOf(options.next) >= this.minBytes ? options.next : undefined;
    let next = this.thread.call({ kind: "open", path, max: this.chunk, ...(then === undefined ? {} : { then }) });
    try {
      for (;;) {
        const chunk = (await next) as ParseChunk;
        // The thread reads the next chunk while this one is consumed.
        if (!chunk.done) next = this.thread.call({ kind: "next", max: this.chunk });
        yield* chunk.records;
        if (chunk.done) return;
      }
    } finally {
      // A reader that stopped early leaves a chunk under way: nobody waits for it.
      next.catch(() => undefined);
    }
  }

  /** Ends the thread (the next big file starts it again). */
  async release(): Promise<void> {
    await this.thread.close({ kind: "close" });
  }
}

/** `inline`, with big files parsed on a thread when the machine has a core for it (PARSE_THREAD_MIN_CORES). */
export function withParseThread(inline: ArticleSource, cores = availableParallelism()): ArticleSource {
  return cores >= PARSE_THREAD_MIN_CORES ? new ParseThreadSource(inline) : inline;
}

/**
 * A file's size in compressed bytes: as it is for gzip and zip, a third of it for plain text; 0 when it cannot be
 * read, so the inline source reports why.
 */
function sizeOf(path: string): number {
  try {
    const bytes = statSync(path).size;
    return sniffCompressionSync(path) === "none" ? bytes / PLAIN_PER_COMPRESSED : bytes;
  } catch {
    return 0;
  }
}
