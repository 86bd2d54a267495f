import { ArticlePartition, closeQuietly } from "./article-partition.js";

// A read thread's connections that map nothing (ArticlePartition `mapped:
// false`), for the reads of a whole index once over (an export's): the pages
// an index's long-lived mapped connection reads would stay in the process's
// memory (RSS) for as long as it lives, where these hold a small page cache.
// An export reads an index a few hundred rows at a time, so each read finding
// its connection open (its statements prepared, its inner pages cached) spares
// a connection's opening per read. Only the indexes read last are kept, and
// none once the thread has had no such read for a moment: what they hold is
// not kept for a server that no longer exports.

/** Connections kept open per thread: an export merges one or two monthly indexes at a time. */
const MOST_OPEN = 2;
/** With no read for this long, every connection is closed. */
const IDLE_MS = 2000;

export class UnmappedConnections {
  /** Least recently used first. */
  private readonly open = new Map<string, ArticlePartition>();
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly limits: { mostOpen: number; idleMs: number } = { mostOpen: MOST_OPEN, idleMs: IDLE_MS }) {}

  /** Runs `read` on the connection to `month`'s index at `path`, opened when none is. */
  run<T>(month: string, path: string, read: (partition: ArticlePartition) => T): T {
    clearTimeout(this.idle);
    const partition = this.take(month, path);
    try {
      return read(partition);
    } catch (error) {
      // A connection that failed a read (a damaged or replaced file) is opened again next time.
      this.forget(month);
      throw error;
    } finally {
      this.idle = setTimeout(() => this.closeAll(), this.limits.idleMs).unref();
    }
  }

  closeAll(): void {
    clearTimeout(this.idle);
    for (const month of [...this.open.keys()]) this.forget(month);
  }

  private take(month: string, path: string): ArticlePartition {
    let partition = this.open.get(month);
    if (partition === undefined) {
      partition = new ArticlePartition(month, path, { create: false, mapped: false });
      for (const [oldest] of this.open) {
        if (this.open.size < this.limits.mostOpen) break;
        this.forget(oldest);
      }
    } else this.open.delete(month);
    this.open.set(month, partition);
    return partition;
  }

  private forget(month: string): void {
    closeQuietly(this.open.get(month));
    this.open.delete(month);
  }
}
