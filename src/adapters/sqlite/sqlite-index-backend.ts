import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { ArticleDetail } from "../../domain/article.js";
import type { ArticleQuery } from "../../domain/search-query.js";
import type {
  ArticleLookup,
  IndexBackend,
  PartitionFailure,
  SearchHit,
  SearchResult,
  WriteResult,
} from "../../ports/index-backend.js";
import { monthOf, toStamp } from "../../shared/timestamps.js";
import { ArticlePartition, type PartitionHit } from "./article-partition.js";

// The embedded index: one SQLite file per calendar month of `collected_at`
// under <dataDir>/index. A query fans out to every partition that can hold a
// match and merges; a partition that cannot be read is reported, not fatal.

const FILE = /^articles-(\d{6})\.db$/;

export class SqliteIndexBackend implements IndexBackend {
  private readonly dir: string;
  private readonly open = new Map<string, ArticlePartition>();

  constructor(dataDir: string) {
    this.dir = join(dataDir, "index");
    mkdirSync(this.dir, { recursive: true });
  }

  async write(articles: readonly ArticleDetail[]): Promise<WriteResult> {
    const byMonth = new Map<string, ArticleDetail[]>();
    for (const article of articles) {
      const month = monthOf(article.id);
      let batch = byMonth.get(month);
      if (!batch) byMonth.set(month, (batch = []));
      batch.push(article);
    }
    let inserted = 0;
    for (const [month, batch] of byMonth) inserted += this.partition(month, true).write(batch);
    return { inserted, unchanged: articles.length - inserted };
  }

  async search(query: ArticleQuery): Promise<SearchResult> {
    const n = query.offset + query.limit;
    const candidates: Array<PartitionHit & { month: string }> = [];
    const partitionsRead: string[] = [];
    const partitionsFailed: PartitionFailure[] = [];
    let total = 0;
    for (const month of this.monthsFor(query)) {
      try {
        const result = this.partition(month, false).search(query, n);
        for (const hit of result.hits) candidates.push({ ...hit, month });
        total += result.total;
        partitionsRead.push(month);
      } catch (error) {
        this.fail(month, error, partitionsFailed);
      }
    }
    const ranked = query.keywords !== undefined;
    candidates.sort(ranked ? byScore : byRecency);
    const page = candidates.slice(query.offset, n);
    const docs = this.loadDocs(page, partitionsFailed);
    const hits: SearchHit[] = [];
    for (const candidate of page) {
      const doc = docs.get(candidate.id);
      if (doc === undefined) continue;
      const hit: SearchHit = { article: JSON.parse(doc) as ArticleDetail };
      if (ranked && candidate.score !== undefined) hit.score = Math.round(candidate.score * 10_000) / 10_000;
      hits.push(hit);
    }
    return {
      hits,
      total,
      partitionsRead: partitionsRead.filter((m) => !partitionsFailed.some((f) => f.partition === m)),
      partitionsFailed,
    };
  }

  /** Loads the documents of the page from the partitions that ranked them. */
  private loadDocs(page: ReadonlyArray<{ id: string; month: string }>, failed: PartitionFailure[]): Map<string, string> {
    const byMonth = new Map<string, string[]>();
    for (const hit of page) {
      let ids = byMonth.get(hit.month);
      if (!ids) byMonth.set(hit.month, (ids = []));
      ids.push(hit.id);
    }
    const docs = new Map<string, string>();
    for (const [month, ids] of byMonth) {
      try {
        for (const [id, doc] of this.partition(month, false).getDocs(ids)) docs.set(id, doc);
      } catch (error) {
        this.fail(month, error, failed);
      }
    }
    return docs;
  }

  private fail(month: string, error: unknown, failed: PartitionFailure[]): void {
    this.forget(month);
    failed.push({ partition: month, reason: error instanceof Error ? error.message : String(error) });
  }

  async getArticle(id: string): Promise<ArticleLookup> {
    // An id begins with its 14-digit collection stamp, which names its partition.
    if (!/^\d{14}/.test(id)) return { status: "absent" };
    const month = monthOf(id);
    if (!existsSync(this.pathOf(month))) return { status: "absent" };
    try {
      const doc = this.partition(month, false).getDoc(id);
      return doc === undefined ? { status: "absent" } : { status: "found", article: JSON.parse(doc) as ArticleDetail };
    } catch (error) {
      this.forget(month);
      return { status: "unavailable", reason: error instanceof Error ? error.message : String(error) };
    }
  }

  async count(): Promise<number> {
    let total = 0;
    for (const month of this.months()) {
      try {
        total += this.partition(month, false).count();
      } catch {
        this.forget(month);
      }
    }
    return total;
  }

  async close(): Promise<void> {
    for (const month of [...this.open.keys()]) this.forget(month);
  }

  /** Months on disk, newest first. Listed per query so partitions written by another process appear. */
  months(): string[] {
    const months: string[] = [];
    for (const name of readdirSync(this.dir)) {
      const m = FILE.exec(name);
      if (m?.[1]) months.push(m[1]);
    }
    return months.sort().reverse();
  }

  /**
   * Partitions that can hold a match. An article is published no later than it
   * is collected (allowing a day of clock skew), so a month that ended more than
   * a day before `from` holds nothing at or after it.
   */
  private monthsFor(query: ArticleQuery): string[] {
    const from = query.filters.from;
    if (from === undefined) return this.months();
    return this.months().filter((month) => monthEndPlusSkew(month) >= from);
  }

  private partition(month: string, create: boolean): ArticlePartition {
    let partition = this.open.get(month);
    if (!partition) {
      partition = new ArticlePartition(month, this.pathOf(month), { create });
      this.open.set(month, partition);
    }
    return partition;
  }

  private forget(month: string): void {
    const partition = this.open.get(month);
    this.open.delete(month);
    try {
      partition?.close();
    } catch {
      // A handle that failed to read may also fail to close; it is dropped either way.
    }
  }

  private pathOf(month: string): string {
    return join(this.dir, `articles-${month}.db`);
  }
}

function byScore(a: PartitionHit, b: PartitionHit): number {
  return (b.score ?? 0) - (a.score ?? 0) || byRecency(a, b);
}

function byRecency(a: PartitionHit, b: PartitionHit): number {
  if (a.published_at !== b.published_at) return a.published_at < b.published_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** 14-digit stamp one day after the last second of `YYYYMM`. */
function monthEndPlusSkew(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(4, 6));
  return toStamp(Date.UTC(y, m, 1) + 24 * 3600 * 1000);
}
