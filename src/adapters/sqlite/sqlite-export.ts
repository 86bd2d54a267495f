import type {
  ExportBatch,
  ExportCount,
  ExportQuery,
  ExportRow,
  ExportStart,
  ExportWalk,
  LargeTieGroup,
} from "../../ports/article-export.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import { toFtsMatch } from "./fts-match.js";
import type { QueryArgs } from "./partition-reads.js";
import type { PartitionHit } from "./partition-search.js";
import { walkPartitions } from "./partition-walker.js";
import type { ReadPool } from "./read-pool.js";

// The embedded engine's export walk (ports/article-export.ts): a keyset walk
// over the monthly indexes that hold matches, merged newest first. Each index
// keeps a buffer of its next keys, refilled from the walk's position when it
// runs dry, so an index gives each key once; documents are read only for the
// rows a batch returns. Memory is a buffer per index, whatever the export's size.

/** Keys an index reads at a time. */
const KEYS_PER_READ = 1000;

type Key = PartitionHit;

interface Source {
  month: string;
  keys: Key[];
  /** Index of the next key in `keys`. */
  head: number;
  /** Nothing left after the last key read. */
  done: boolean;
}

export async function openSqliteExport(
  pool: ReadPool,
  months: readonly string[],
  query: ExportQuery,
  tieLimit: number,
): Promise<ExportWalk> {
  const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
  const args: QueryArgs = match === undefined ? { filters: query.filters } : { filters: query.filters, match };
  const count = await countExport(pool, months, args, query, tieLimit);
  const sources: Source[] = count.holding.map((month) => ({ month, keys: [], head: 0, done: false }));
  return new SqliteExportWalk(pool, args, count.count, sources);
}

class SqliteExportWalk implements ExportWalk {
  constructor(
    private readonly pool: ReadPool,
    private readonly args: QueryArgs,
    readonly count: ExportCount,
    private sources: Source[],
  ) {}

  async next(start: ExportStart | null, n: number): Promise<ExportBatch> {
    for (const source of this.sources) dropUpTo(source, start);
    const failed = await this.refill(start);
    const taken: Array<Key & { month: string }> = [];
    // Merge until n rows, or until an index that may hold more runs dry (its next keys could be newer than the rest).
    while (taken.length < n && failed.length === 0) {
      let best: Source | undefined;
      let dry = false;
      for (const source of this.sources) {
        const key = source.keys[source.head];
        if (key === undefined) {
          if (!source.done) dry = true;
          continue;
        }
        const head = best?.keys[best.head];
        if (head === undefined || newer(key, head)) best = source;
      }
      if (dry || best === undefined) break;
      taken.push({ ...(best.keys[best.head++] as Key), month: best.month });
    }
    if (failed.length > 0) return { rows: [], partitionsFailed: failed };
    const docs = await this.documents(taken);
    if ("failed" in docs) return { rows: [], partitionsFailed: docs.failed };
    const rows: ExportRow[] = taken.map((key, i) => ({
      published_at: key.published_at,
      id: key.id,
      doc: docs.list[i] as string,
    }));
    return { rows, partitionsFailed: [] };
  }

  async close(): Promise<void> {
    this.sources = [];
  }

  /** Reads the next keys of every index whose buffer ran dry, from `start`. */
  private async refill(start: ExportStart | null): Promise<PartitionFailure[]> {
    const dry = this.sources.filter((s) => s.head >= s.keys.length && !s.done);
    if (dry.length === 0) return [];
    const byMonth = new Map(dry.map((s) => [s.month, s]));
    const keyset =
      start === null
        ? undefined
        : "before" in start
          ? { before: start.before }
          : { published_at: start.published_at, id: start.id };
    const walk = await walkPartitions(
      this.pool,
      dry.map((s) => s.month),
      { lane: "heavy", startedMs: Date.now() },
      (month) => ({ job: "exportKeys", month, args: { ...this.args, n: KEYS_PER_READ, ...(keyset ? { keyset } : {}) } }),
      (month, keys) => {
        const source = byMonth.get(month) as Source;
        source.keys = keys;
        source.head = 0;
        source.done = keys.length < KEYS_PER_READ;
      },
    );
    return walk.failed;
  }

  private async documents(
    taken: ReadonlyArray<Key & { month: string }>,
  ): Promise<{ list: string[] } | { failed: PartitionFailure[] }> {
    const byMonth = new Map<string, number[]>();
    taken.forEach((key, i) => {
      let slots = byMonth.get(key.month);
      if (!slots) byMonth.set(key.month, (slots = []));
      slots.push(i);
    });
    const list: string[] = new Array<string>(taken.length);
    const walk = await walkPartitions(
      this.pool,
      [...byMonth.keys()],
      { lane: "heavy", startedMs: Date.now() },
      (month) => ({ job: "exportDocs", month, args: { rowids: (byMonth.get(month) ?? []).map((i) => (taken[i] as Key).rowid) } }),
      (month, docs) => {
        (byMonth.get(month) ?? []).forEach((slot, j) => {
          const doc = docs[j];
          if (doc !== undefined) list[slot] = doc;
        });
      },
    );
    if (walk.failed.length > 0) return { failed: walk.failed };
    // An article removed between its key and its document is not exported (documents are written with their keys).
    return { list };
  }
}

/** The counts, each large tie group summed across every index holding it. */
async function countExport(
  pool: ReadPool,
  months: readonly string[],
  args: QueryArgs,
  query: ExportQuery,
  tieLimit: number,
): Promise<{ count: ExportCount; holding: string[] }> {
  const after = query.after ?? undefined;
  // A timestamp over the limit in all has more than limit/P matches in at least one of the P indexes.
  const threshold = Math.floor(tieLimit / Math.max(1, months.length));
  let total = 0;
  let remaining = 0;
  const holding: string[] = [];
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
      if (part.remaining > 0) holding.push(month);
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
    holding: holding.filter((m) => !failedMonths.has(m)),
  };
}

/** Drops the buffered keys not strictly after `start` in export order. */
function dropUpTo(source: Source, start: ExportStart | null): void {
  if (start === null) return;
  while (source.head < source.keys.length) {
    const key = source.keys[source.head] as Key;
    const after = "before" in start ? key.published_at < start.before : newer(start, key);
    if (after) return;
    source.head++;
  }
}

/** `a` comes before `b` in export order (newest first, then id descending). */
function newer(a: { published_at: string; id: string }, b: { published_at: string; id: string }): boolean {
  return a.published_at > b.published_at || (a.published_at === b.published_at && a.id > b.id);
}
