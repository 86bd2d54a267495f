import type { EncodedLines, ExportView } from "../../domain/export-lines.js";
import type {
  ExportBatch,
  ExportCount,
  ExportPosition,
  ExportQuery,
  ExportStart,
  ExportWalk,
  LargeTieGroup,
} from "../../ports/article-export.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import { toFtsMatch } from "./fts-match.js";
import type { Keyset } from "./match-conditions.js";
import type { QueryArgs } from "./partition-reads.js";
import { unreadable, walkPartitions } from "./partition-walker.js";
import { LineBuffers, type LineBuffer } from "./line-buffers.js";
import { NOT_STARTED, type ReadPool } from "./read-pool.js";

// The embedded engine's export walk (ports/article-export.ts): a keyset walk
// over the monthly indexes that hold matches, merged newest first. Each index
// keeps a buffer of its next rows, their keys and lines made on the read
// threads (partition-export.ts), so an index gives each row once; an index is
// first read once the merge reaches its first match (found when counting), so
// the older months hold nothing while the newer ones are sent. A read takes
// the keys, then makes the documents' lines in parts on every thread of the
// lane at once, each part written into a buffer shared with the threads
// (line-buffers.ts). As soon as an index's rows are used up, the rows after
// them are read, while the stream sends the batch they were taken for. A
// batch is a view of one part's lines; the part's buffer is filled again once
// the walk has merged past it and the stream has written every batch of it
// (ExportBatch.release). Memory is a fixed set of buffers, whatever the
// export's size.

/**
 * Rows an index reads at a time. Small reads keep what the read threads hold small: the process's private memory
 * over a 414,177-article export rose 73 MB with 2,000, 53 with 500 and 28 with 200 (bench/RESULTS.md, "Export").
 */
const ROWS_PER_READ = 200;
/** Bytes of a shared buffer: a part of a read (ROWS_PER_READ / threads rows) of full Articles, about 1.5 KB each, with room. */
const LINE_BUFFER_BYTES = 2 ** 20;
/**
 * Shared buffers an export fills at most: two reads' parts for the index being merged and one read's for each
 * other index, with the batches the stream has not written yet. Past them, a read's lines take memory of their own.
 */
const MOST_LINE_BUFFERS = 24;
/**
 * A batch ends where the rows it takes would start another part's lines, once it holds this many: its lines are
 * then a view of one buffer, not a copy. Fewer rows (indexes interleaving row by row) are copied into one batch.
 */
const MIN_ROWS_PER_VIEW = 64;

/** Rows of an index's read whose lines are in one buffer: rows `from` to `to` (excluded) of the read. */
interface LinesRun {
  lines: EncodedLines;
  from: number;
  to: number;
  /** The shared buffer the lines are in (none when they did not fit); held until the walk merges past the run. */
  buffer: LineBuffer | undefined;
  passed: boolean;
}

/** An index's next rows in export order, row i's line in the run holding it. */
interface ExportRowsPart {
  published: string[];
  ids: string[];
  runs: LinesRun[];
  /** The last match read (its row left out when its article was removed since); the next read starts after it. */
  last: ExportPosition | undefined;
  /** Nothing follows `last` in this index. */
  done: boolean;
}

interface Source {
  month: string;
  /** The first match, until the index is first read. */
  first: ExportPosition | undefined;
  rows: ExportRowsPart;
  /** Index of the next row in `rows`. */
  head: number;
  /** The rows after the buffer's last, being read since it was used up. */
  ahead: Promise<Read> | undefined;
}

type Read = { rows: ExportRowsPart } | { failed: PartitionFailure };

const NO_LINES: EncodedLines = { bytes: new Uint8Array(0), ends: [] };
const NOTHING_READ: ExportRowsPart = { published: [], ids: [], runs: [], last: undefined, done: false };

export async function openSqliteExport(
  pool: ReadPool,
  months: readonly string[],
  query: ExportQuery,
  tieLimit: number,
): Promise<ExportWalk> {
  const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
  const args: QueryArgs = match === undefined ? { filters: query.filters } : { filters: query.filters, match };
  const count = await countExport(pool, months, args, query, tieLimit);
  const sources: Source[] = count.holding.map(({ month, first }) => ({
    month,
    first,
    rows: NOTHING_READ,
    head: 0,
    ahead: undefined,
  }));
  return new SqliteExportWalk(pool, args, query.view, count.count, sources);
}

class SqliteExportWalk implements ExportWalk {
  private readonly buffers = new LineBuffers(LINE_BUFFER_BYTES, MOST_LINE_BUFFERS);

  constructor(
    private readonly pool: ReadPool,
    private readonly args: QueryArgs,
    private readonly view: ExportView,
    readonly count: ExportCount,
    private sources: Source[],
  ) {}

  async next(start: ExportStart | null, n: number): Promise<ExportBatch> {
    for (const source of this.sources) dropUpTo(source, start);
    const failed = await this.refill(start);
    if (failed.length > 0) return { rows: [], lines: NO_LINES, partitionsFailed: failed };
    const taken: Taken[] = [];
    // Merge until n rows, or until an index not read on could hold the next row.
    while (taken.length < n) {
      const best = newest(this.sources);
      if (best === undefined || this.sources.some((source) => waiting(source) && mayPrecede(source, best))) break;
      const run = runOf(best.rows, best.head) as LinesRun;
      const previous = taken.at(-1);
      if (previous !== undefined && previous.run !== run && taken.length >= MIN_ROWS_PER_VIEW) break;
      taken.push({ source: best, row: best.head++, run });
    }
    // The batch's view holds its buffer before the runs merged past let go of theirs.
    const lines = linesOf(taken);
    for (const source of this.sources) {
      passRuns(source);
      // Read ahead where a buffer is used up: the read runs while this batch is sent.
      const { last, done } = source.rows;
      if (source.head >= source.rows.ids.length && !done && last !== undefined && source.ahead === undefined) {
        source.ahead = this.read(source.month, last);
      }
    }
    return { rows: taken.map(({ source, row }) => positionOf(source.rows, row)), ...lines, partitionsFailed: [] };
  }

  async close(): Promise<void> {
    // A read ahead still under way settles on its own (read() never rejects); its rows are dropped.
    for (const source of this.sources) for (const run of source.rows.runs) pass(run);
    this.sources = [];
  }

  /**
   * Fills the used-up buffers of the indexes that could hold the next row, with their read ahead or read from
   * `start`, until the next row is known.
   */
  private async refill(start: ExportStart | null): Promise<PartitionFailure[]> {
    for (;;) {
      const best = newest(this.sources);
      const due = best === undefined ? firstDue(this.sources) : this.sources.filter((s) => waiting(s) && mayPrecede(s, best));
      if (due.length === 0) return [];
      const failed = await this.fillFrom(due, start);
      if (failed.length > 0) return failed;
    }
  }

  private async fillFrom(due: Source[], start: ExportStart | null): Promise<PartitionFailure[]> {
    const failed: PartitionFailure[] = [];
    await Promise.all(
      due.map(async (source) => {
        let pending = source.ahead;
        source.ahead = undefined;
        let from: ExportStart | undefined = start ?? undefined;
        for (;;) {
          const read = await (pending ?? this.read(source.month, from));
          pending = undefined;
          if ("failed" in read) return void failed.push(read.failed);
          fill(source, read.rows, start);
          if (source.head < source.rows.ids.length || source.rows.done) return;
          // Every row read was before `start` (a tie group skipped) or removed since counted: read on from the
          // further of the two.
          from = furthest(start, read.rows.last);
        }
      }),
    );
    failed.sort((a, b) => (a.partition < b.partition ? 1 : -1));
    return failed;
  }

  private async read(month: string, from: ExportStart | undefined): Promise<Read> {
    const keyset = keysetOf(from);
    const taken: LineBuffer[] = [];
    try {
      const keys = await this.pool.run("heavy", {
        job: "exportKeys",
        month,
        args: { ...this.args, n: ROWS_PER_READ, ...(keyset ? { keyset } : {}) },
      });
      // Never the case: an export's reads have no start-by time.
      if (keys === NOT_STARTED) return { failed: unreadable(month, new Error("the read was not started")) };
      const width = this.pool.width("heavy");
      const size = Math.ceil(keys.length / width);
      const parts = await Promise.all(
        Array.from({ length: keys.length === 0 ? 0 : Math.ceil(keys.length / size) }, async (_, i) => {
          const slice = keys.slice(i * size, (i + 1) * size);
          const rowids = slice.map((key) => key.rowid);
          const buffer = this.buffers.take();
          if (buffer !== undefined) taken.push(buffer);
          const into = buffer?.shared;
          const part = await this.pool.run("heavy", {
            job: "exportLines",
            month,
            args: { rowids, view: this.view, ...(into ? { into } : {}) },
          });
          if (part === NOT_STARTED) throw new Error("the read was not started");
          const missing = new Set(part.missing);
          return { keys: slice.filter((_, j) => !missing.has(j)), lines: part.lines, buffer: part.filled ? buffer : undefined };
        }),
      );
      const last = keys.at(-1);
      const runs: LinesRun[] = [];
      let at = 0;
      for (const part of parts) {
        runs.push({ lines: part.lines, from: at, to: at + part.keys.length, buffer: part.buffer, passed: false });
        at += part.keys.length;
      }
      // A buffer the lines did not fit in is free again.
      for (const buffer of taken) if (!runs.some((run) => run.buffer === buffer)) buffer.drop();
      return {
        rows: {
          published: parts.flatMap((part) => part.keys.map((key) => key.published_at)),
          ids: parts.flatMap((part) => part.keys.map((key) => key.id)),
          runs,
          last: last && { published_at: last.published_at, id: last.id },
          done: keys.length < ROWS_PER_READ,
        },
      };
    } catch (error) {
      for (const buffer of taken) buffer.drop();
      return { failed: unreadable(month, error) };
    }
  }
}

interface Taken {
  source: Source;
  row: number;
  run: LinesRun;
}

function fill(source: Source, rows: ExportRowsPart, start: ExportStart | null): void {
  for (const run of source.rows.runs) pass(run);
  source.first = undefined;
  source.rows = rows;
  source.head = 0;
  dropUpTo(source, start);
}

/** Lets go of the runs the index's head has moved past: their buffers are held only by the batches viewing them. */
function passRuns(source: Source): void {
  for (const run of source.rows.runs) if (run.to <= source.head) pass(run);
}

function pass(run: LinesRun): void {
  if (run.passed) return;
  run.passed = true;
  run.buffer?.drop();
}

function runOf(rows: ExportRowsPart, row: number): LinesRun | undefined {
  return rows.runs.find((run) => row >= run.from && row < run.to);
}

/** Of a start and the last match an index read, the one further in export order. */
function furthest(start: ExportStart | null, last: ExportPosition | undefined): ExportStart | undefined {
  if (last === undefined || start === null) return last ?? start ?? undefined;
  const lastIsFurther = "before" in start ? last.published_at < start.before : before(start, last);
  return lastIsFurther ? last : start;
}

function keysetOf(start: ExportStart | null | undefined): Keyset | undefined {
  if (start === null || start === undefined) return undefined;
  return "before" in start ? { before: start.before } : { published_at: start.published_at, id: start.id };
}

function positionOf(rows: ExportRowsPart, row: number): ExportPosition {
  return { published_at: rows.published[row] as string, id: rows.ids[row] as string };
}

/**
 * The taken rows' lines, back to back: a view of their buffer when they are one run's (the buffer then held until
 * the batch is released), else a copy.
 */
function linesOf(taken: readonly Taken[]): Pick<ExportBatch, "lines" | "release"> {
  const runs: Array<{ run: LinesRun; from: number; to: number }> = [];
  for (const { row, run } of taken) {
    const previous = runs.at(-1);
    if (previous !== undefined && previous.run === run && previous.to === row) previous.to = row + 1;
    else runs.push({ run, from: row, to: row + 1 });
  }
  const views = runs.map(({ run, from, to }) => {
    const { lines } = run;
    const begin = from === run.from ? 0 : (lines.ends[from - run.from - 1] as number);
    return {
      bytes: lines.bytes.subarray(begin, lines.ends[to - run.from - 1]),
      ends: lines.ends.slice(from - run.from, to - run.from).map((end) => end - begin),
    };
  });
  const only = runs.length === 1 ? runs[0]?.run.buffer : undefined;
  if (only === undefined) return { lines: concatLines(views) };
  only.hold();
  let held = true;
  return {
    lines: views[0] as EncodedLines,
    release: () => {
      if (held) only.drop();
      held = false;
    },
  };
}

/** Runs of lines, back to back: the run itself when there is one. */
function concatLines(runs: readonly EncodedLines[]): EncodedLines {
  if (runs.length === 1) return runs[0] as EncodedLines;
  const bytes = new Uint8Array(runs.reduce((sum, run) => sum + run.bytes.length, 0));
  const ends: number[] = [];
  let at = 0;
  for (const run of runs) {
    bytes.set(run.bytes, at);
    for (const end of run.ends) ends.push(at + end);
    at += run.bytes.length;
  }
  return { bytes, ends };
}

/** The counts, each large tie group summed across every index holding it. */
async function countExport(
  pool: ReadPool,
  months: readonly string[],
  args: QueryArgs,
  query: ExportQuery,
  tieLimit: number,
): Promise<{ count: ExportCount; holding: Array<{ month: string; first: ExportPosition | undefined }> }> {
  const after = query.after ?? undefined;
  // A timestamp over the limit in all has more than limit/P matches in at least one of the P indexes.
  const threshold = Math.floor(tieLimit / Math.max(1, months.length));
  let total = 0;
  let remaining = 0;
  const holding: Array<{ month: string; first: ExportPosition | undefined }> = [];
  const reported = new Map<string, Map<string, { matches: number; sent: number }>>();
  const startedMs = Date.now();
  const walk = await walkPartitions(
    pool,
    months,
    { lane: "heavy", startedMs },
    (month) => ({ job: "exportCount", month, args: { ...args, after, threshold } }),
    (month, part) => {
      total += part.total;
      remaining += part.remaining;
      if (part.remaining > 0) holding.push({ month, first: part.first });
      reported.set(month, new Map(part.groups.map((g) => [g.published_at, { matches: g.matches, sent: g.sent }])));
    },
  );
  // A timestamp that could be over the limit: what the indexes reported, and at most `threshold` in each other one.
  const counted = new Set(walk.read);
  const stamps = new Set<string>();
  for (const groups of reported.values()) for (const stamp of groups.keys()) stamps.add(stamp);
  const suspects = [...stamps].filter((stamp) => {
    let bound = 0;
    for (const month of counted) bound += reported.get(month)?.get(stamp)?.matches ?? threshold;
    return bound > tieLimit;
  });
  const unreported = [...counted].filter((month) => suspects.some((stamp) => !reported.get(month)?.has(stamp)));
  if (suspects.length > 0 && unreported.length > 0) {
    const again = await walkPartitions(
      pool,
      unreported,
      { lane: "heavy", startedMs },
      (month) => ({ job: "exportCount", month, args: { ...args, after, threshold: 0, stamps: suspects } }),
      (month, part) => {
        const groups = reported.get(month) ?? new Map<string, { matches: number; sent: number }>();
        for (const g of part.groups) groups.set(g.published_at, { matches: g.matches, sent: g.sent });
        reported.set(month, groups);
      },
    );
    for (const failure of again.failed)
      if (!walk.failed.some((f) => f.partition === failure.partition)) walk.failed.push(failure);
  }
  const largeTieGroups: LargeTieGroup[] = [];
  for (const stamp of suspects) {
    let matches = 0;
    let sent = 0;
    for (const month of counted) {
      const group = reported.get(month)?.get(stamp);
      matches += group?.matches ?? 0;
      sent += group?.sent ?? 0;
    }
    if (matches > tieLimit) largeTieGroups.push({ published_at: stamp, matches, sent });
  }
  largeTieGroups.sort((a, b) => (a.published_at < b.published_at ? 1 : -1));
  const failedMonths = new Set(walk.failed.map((f) => f.partition));
  return {
    count: {
      total,
      remaining,
      largeTieGroups,
      partitionsRead: walk.read.filter((m) => !failedMonths.has(m)),
      partitionsFailed: walk.failed,
    },
    holding: holding.filter(({ month }) => !failedMonths.has(month)),
  };
}

/** Drops the buffered rows not strictly after `start` in export order. */
function dropUpTo(source: Source, start: ExportStart | null): void {
  if (start === null) return;
  const { published, ids } = source.rows;
  while (source.head < ids.length) {
    const row = { published_at: published[source.head] as string, id: ids[source.head] as string };
    const after = "before" in start ? row.published_at < start.before : before(start, row);
    if (after) return;
    source.head++;
  }
}

/** The index whose next buffered row comes first in export order; undefined when no buffer holds a row. */
function newest(sources: readonly Source[]): Source | undefined {
  let best: Source | undefined;
  for (const source of sources) {
    if (source.head >= source.rows.ids.length) continue;
    if (best === undefined || before(positionOf(source.rows, source.head), positionOf(best.rows, best.head))) best = source;
  }
  return best;
}

/** With no row buffered: the indexes read before (each may hold the next row), else the one whose first match is first. */
function firstDue(sources: readonly Source[]): Source[] {
  const read = sources.filter((s) => waiting(s) && s.first === undefined);
  if (read.length > 0) return read;
  let earliest: Source | undefined;
  for (const source of sources.filter(waiting)) {
    if (earliest === undefined || before(source.first as ExportPosition, earliest.first as ExportPosition)) earliest = source;
  }
  return earliest === undefined ? [] : [earliest];
}

/** The index's buffer is used up and it may hold more. */
function waiting(source: Source): boolean {
  return source.head >= source.rows.ids.length && !source.rows.done;
}

/**
 * A waiting index's next match could come before the next row of `other` (buffered, or its first match): its
 * first match does, or, once read, the next may (it follows the last one read, and nothing says how closely).
 */
function mayPrecede(source: Source, other: Source): boolean {
  const next = other.head < other.rows.ids.length ? positionOf(other.rows, other.head) : other.first;
  if (next === undefined) return true;
  if (source.first !== undefined) return before(source.first, next);
  const { last } = source.rows;
  return last === undefined || !before(next, last);
}

/** `a` comes before `b` in export order (newest first, then id descending). */
function before(a: ExportPosition, b: ExportPosition): boolean {
  return a.published_at > b.published_at || (a.published_at === b.published_at && a.id > b.id);
}
