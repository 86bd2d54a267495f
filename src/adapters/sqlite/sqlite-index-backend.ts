import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ArticleDetail } from "../../domain/article.js";
import { mergeFacets, shardSize, type Facet, type PartitionFacet } from "../../domain/facets.js";
import { FILTER_FIELDS, type FilterField } from "../../domain/filter-fields.js";
import type { ArticleQuery } from "../../domain/search-query.js";
import type {
  ArticleLookup,
  IndexBackend,
  PartitionFailure,
  SearchHit,
  SearchResult,
  WriteResult,
} from "../../ports/index-backend.js";
import type {
  StoryIndex,
  StoryMatch,
  StoryMatches,
  StoryMembers,
  StoryQuery,
  StoryRelabel,
  StorySizes,
} from "../../ports/story-index.js";
import { monthOf, toStamp } from "../../shared/timestamps.js";
import { ArticlePartition, type PartitionHit, type StoryMatchRow, type StoryMemberRow } from "./article-partition.js";
import { cursorPage, type Candidate } from "./cursor-page.js";
import { mergeSorted } from "./merge-sorted.js";
import { toFtsMatch } from "./fts-match.js";
import { openForWrite } from "./open-for-write.js";
import type { Keyset, PartitionSearch } from "./match-conditions.js";
import { PartitionCatalog } from "./partition-catalog.js";
import { prepareArticle } from "./prepared-article.js";
import { WriterThread } from "./writer-thread.js";

// The embedded index: one SQLite file per calendar month of `collected_at`
// under <dataDir>/index. A query fans out to every partition that can hold a
// match, newest first, and merges: each partition returns lightweight
// candidates (id, published_at, score), and documents are loaded only for the
// page returned. A partition that cannot be read is reported, not fatal.

const FILE = /^articles-(\d{6})\.db$/;

/** A partition taking part in a query, with the query compiled for it. */
export interface Participant {
  month: string;
  partition: ArticlePartition;
  search: PartitionSearch;
}

export interface SqliteIndexOptions {
  /**
   * Run writes on a worker thread (default), so an ingest parses the next
   * batch while the last one is written; false writes on the calling thread.
   */
  writerThread?: boolean;
}

export class SqliteIndexBackend implements IndexBackend, StoryIndex {
  private readonly dir: string;
  private readonly catalog: PartitionCatalog;
  private readonly open = new Map<string, ArticlePartition>();
  private readonly writer: WriterThread | undefined;
  private listed: { mtimeMs: number; months: string[] } | undefined;

  constructor(dataDir: string, options: SqliteIndexOptions = {}) {
    this.dir = join(dataDir, "index");
    mkdirSync(this.dir, { recursive: true });
    this.catalog = new PartitionCatalog(this.dir);
    if (options.writerThread ?? true) this.writer = new WriterThread();
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
    for (const [month, batch] of byMonth) {
      if (this.writer) {
        const path = this.pathOf(month);
        const isNew = !existsSync(path);
        inserted += await this.writer.write(month, path, batch.map(prepareArticle));
        if (isNew) this.catalog.add(month);
      } else {
        inserted += this.partition(month, true).write(batch.map(prepareArticle));
      }
    }
    return { inserted, unchanged: articles.length - inserted };
  }

  async search(query: ArticleQuery): Promise<SearchResult> {
    const started = performance.now();
    const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
    const cursorMode = query.cursor !== undefined && match === undefined;
    const after = query.cursor?.after ?? null;
    const n = cursorMode ? query.limit + 1 : query.offset + query.limit;
    const facetCodes = (query.facets?.fields ?? []).map((f) => FILTER_FIELDS[f].code);
    const depth = shardSize(query.facets?.limit ?? 10);

    const participants: Participant[] = [];
    const lists: Candidate[][] = [];
    const facetParts = new Map<number, PartitionFacet[]>(facetCodes.map((code) => [code, []]));
    let total = 0;

    const { read, failed } = this.eachPartition(query, match, started, (month, partition, search) => {
      if (facetCodes.length > 0) {
        // One pass over the match set counts the facets and the total together.
        const counted = partition.facets(search, facetCodes, depth);
        total += counted.total;
        for (const [code, facet] of counted.facets) facetParts.get(code)?.push(facet);
      } else {
        total += partition.total(search);
      }
      // A browse reads partitions newest first: one whose newest article is older than the
      // n-th candidate found so far cannot place any on the page.
      const floor = match === undefined ? nthPublished(lists, n) : undefined;
      if (floor === undefined || search.newest >= floor) {
        const keyset = after ? { published_at: after.published_at, id: after.id } : undefined;
        lists.push(tagged(partition.candidates(search, n, cursorMode ? keyset : undefined), month));
      }
      participants.push({ month, partition, search });
    });

    const ranked = match !== undefined;
    // Each list is in the merged order already (partitions rank with the same tie-breaks).
    const candidates = mergeSorted(lists, ranked ? byScore : byRecency, n);
    let page: Candidate[];
    let cursor: SearchResult["cursor"];
    if (cursorMode) {
      const outcome = cursorPage(candidates, query.limit, after, (keyset, k) => this.refetch(participants, keyset, k, failed));
      page = outcome.page;
      cursor = outcome.outcome;
    } else {
      page = candidates.slice(query.offset, n);
    }

    const docs = this.loadDocs(page, failed);
    const hits: SearchHit[] = [];
    for (const candidate of page) {
      const doc = docs.get(candidate.id);
      if (doc === undefined) continue;
      const hit: SearchHit = { article: JSON.parse(doc) as ArticleDetail };
      if (ranked && candidate.score !== undefined) hit.score = Math.round(candidate.score * 10_000) / 10_000;
      hits.push(hit);
    }

    const result: SearchResult = {
      hits,
      total,
      partitionsRead: read.filter((m) => !failed.some((f) => f.partition === m)),
      partitionsFailed: failed,
    };
    if (query.facets) {
      const facets: Partial<Record<FilterField, Facet>> = {};
      for (const field of query.facets.fields) {
        facets[field] = mergeFacets(facetParts.get(FILTER_FIELDS[field].code) ?? [], query.facets.limit);
      }
      result.facets = facets;
    }
    if (cursor) result.cursor = cursor;
    return result;
  }

  /**
   * Visits every monthly index the query can reach that can hold a match,
   * newest first. One not started within the query's budget is left unread
   * (`timed_out`); one that cannot be read is `unreadable`.
   */
  private eachPartition(
    query: Pick<ArticleQuery, "filters" | "budgetMs">,
    match: string | undefined,
    startedMs: number,
    visit: (month: string, partition: ArticlePartition, search: PartitionSearch) => void,
  ): { read: string[]; failed: PartitionFailure[] } {
    const read: string[] = [];
    const failed: PartitionFailure[] = [];
    for (const month of this.monthsFor(query)) {
      const spent = performance.now() - startedMs;
      if (query.budgetMs !== undefined && read.length + failed.length > 0 && spent > query.budgetMs) {
        failed.push({ partition: month, kind: "timed_out", reason: `not read: the query's ${query.budgetMs} ms budget ran out` });
        continue;
      }
      try {
        const partition = this.partition(month, false);
        const search = compile(partition, query, match);
        if (search !== null) visit(month, partition, search);
        read.push(month);
      } catch (error) {
        this.fail(month, error, failed);
      }
    }
    return { read, failed };
  }

  /** Candidates after `keyset` from every participant, merged newest first. */
  private refetch(participants: Participant[], keyset: Keyset, k: number, failed: PartitionFailure[]): Candidate[] {
    const lists: Candidate[][] = [];
    for (const p of participants) {
      if (failed.some((f) => f.partition === p.month)) continue;
      try {
        lists.push(tagged(p.partition.candidates(p.search, k, keyset), p.month));
      } catch (error) {
        this.fail(p.month, error, failed);
      }
    }
    return mergeSorted(lists, byRecency, k);
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
    if (failed.some((f) => f.partition === month)) return;
    failed.push({ partition: month, kind: "unreadable", reason: error instanceof Error ? error.message : String(error) });
  }

  /**
   * The members of a story within a window (ports/story-index.ts): every
   * member, newest first, and the full documents of the newest `limit`. An
   * article id given in place of a story id resolves to that article's story
   * (a story absorbed by a merge lives on in the merged one).
   */
  async storyMembers(
    storyId: string,
    window: { from?: string | undefined; to?: string | undefined },
    limit: number,
  ): Promise<StoryMembers> {
    const found = this.membersOf(storyId, window);
    if (found.members.length === 0 && /^\d{14}/.test(storyId)) {
      const current = this.storyOfArticle(storyId);
      if (current !== undefined && current !== storyId) return this.storyMembers(current, window, limit);
    }
    found.members.sort(byRecency);
    const page = found.members.slice(0, limit);
    const docs = this.loadDocs(page, found.partitionsFailed);
    const listed = page.flatMap((m) => {
      const doc = docs.get(m.id);
      return doc === undefined ? [] : [JSON.parse(doc) as ArticleDetail];
    });
    return {
      members: found.members.map(({ month: _month, ...member }) => member),
      listed,
      partitionsRead: found.partitionsRead.filter((m) => !found.partitionsFailed.some((f) => f.partition === m)),
      partitionsFailed: found.partitionsFailed,
    };
  }

  private membersOf(
    storyId: string,
    window: { from?: string | undefined; to?: string | undefined },
  ): { members: Array<StoryMemberRow & { month: string }>; partitionsRead: string[]; partitionsFailed: PartitionFailure[] } {
    const members: Array<StoryMemberRow & { month: string }> = [];
    const partitionsRead: string[] = [];
    const partitionsFailed: PartitionFailure[] = [];
    // A story's id is its earliest member's, so no member was collected in a month before the id's.
    const first = /^\d{14}/.test(storyId) ? monthOf(storyId) : "";
    const months = this.months().filter((m) => m >= first && (window.from === undefined || monthEndPlusSkew(m) >= window.from));
    for (const month of months) {
      try {
        for (const member of this.partition(month, false).storyMembers(storyId, window.from, window.to))
          members.push({ ...member, month });
        partitionsRead.push(month);
      } catch (error) {
        this.fail(month, error, partitionsFailed);
      }
    }
    return { members, partitionsRead, partitionsFailed };
  }

  private storyOfArticle(articleId: string): string | undefined {
    const month = monthOf(articleId);
    if (!existsSync(this.pathOf(month))) return undefined;
    try {
      return this.partition(month, false).storyOf(articleId);
    } catch {
      this.forget(month);
      return undefined;
    }
  }

  /**
   * Every story with a match, merged across monthly indexes (newest match,
   * best score). Indexes are read newest first within the query's budget, as
   * a search reads them.
   */
  async matchStories(query: StoryQuery): Promise<StoryMatches> {
    const started = performance.now();
    const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
    const stories = new Map<string, StoryMatch>();
    // Stories matched outside those kept: a browse of a whole monthly index keeps only its newest (see newestStories).
    const others = new Set<string>();
    const keep = (story_id: string, found: StoryMatchRow): void => {
      const seen = stories.get(story_id);
      if (seen === undefined) stories.set(story_id, { story_id, ...found });
      else {
        if (found.newest > seen.newest) seen.newest = found.newest;
        if (found.score !== undefined && (seen.score === undefined || found.score > seen.score)) seen.score = found.score;
      }
    };
    const { read, failed } = this.eachPartition(query, match, started, (_month, partition, search) => {
      // A story among a monthly index's n newest is found whole: every story of the n newest overall is among the n
      // newest of the index holding its newest match.
      const browsed = query.newest === undefined ? undefined : partition.newestStories(search, query.newest);
      if (browsed === undefined) {
        for (const [story_id, found] of partition.storyMatches(search)) keep(story_id, found);
        return;
      }
      for (const [story_id, found] of browsed.newest) keep(story_id, found);
      for (const story_id of browsed.all) others.add(story_id);
    });
    for (const story_id of stories.keys()) others.delete(story_id);
    return {
      stories: [...stories.values()],
      total: stories.size + others.size,
      partitionsRead: read,
      partitionsFailed: failed,
    };
  }

  async storySizes(storyIds: readonly string[], from: string | undefined): Promise<StorySizes> {
    const sizes: StorySizes["sizes"] = new Map(storyIds.map((id) => [id, { count: 0, sources: new Set<string>() }]));
    const read: string[] = [];
    const failed: PartitionFailure[] = [];
    if (storyIds.length === 0) return { sizes, partitionsRead: read, partitionsFailed: failed };
    // A story's id is its earliest member's, so no member was collected in a month before the earliest id's.
    const first = monthOf(storyIds.reduce((a, b) => (b < a ? b : a)));
    const months = this.months().filter((m) => m >= first && (from === undefined || monthEndPlusSkew(m) >= from));
    for (const month of months) {
      try {
        for (const { story, source } of this.partition(month, false).storySources(storyIds, from)) {
          const size = sizes.get(story);
          if (size === undefined) continue;
          size.count++;
          if (source !== null) size.sources.add(source);
        }
        read.push(month);
      } catch (error) {
        this.fail(month, error, failed);
      }
    }
    return { sizes, partitionsRead: read, partitionsFailed: failed };
  }

  /** Moves articles to the story clustering put them in; each month's changes in one transaction. */
  async relabel(changes: readonly StoryRelabel[]): Promise<void> {
    for (const change of changes) {
      const byMonth = new Map<string, string[]>();
      for (const id of change.article_ids) {
        const month = monthOf(id);
        byMonth.set(month, [...(byMonth.get(month) ?? []), id]);
      }
      for (const [month, ids] of byMonth) {
        if (!existsSync(this.pathOf(month))) continue;
        if (this.writer) await this.writer.relabel(month, this.pathOf(month), change.story_id, ids);
        else this.partition(month, true).relabel(change.story_id, ids);
      }
    }
  }

  async getArticle(id: string): Promise<ArticleLookup> {
    // An id begins with its 14-digit collection stamp, which names its partition.
    if (!/^\d{14}/.test(id)) return { status: "absent" };
    const month = monthOf(id);
    if (!existsSync(this.pathOf(month))) {
      return this.catalog.months().includes(month)
        ? { status: "unavailable", reason: `the monthly index ${month} is missing` }
        : { status: "absent" };
    }
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
    await this.writer?.close();
    for (const month of [...this.open.keys()]) this.forget(month);
  }

  /**
   * Months with an index, newest first: files on disk and months the catalog
   * records (whose file may be missing). Listed per query, so partitions
   * written by another process appear.
   */
  months(): string[] {
    // The directory is listed again only when its modification time moved (a file was added or removed).
    const mtimeMs = statSync(this.dir).mtimeMs;
    if (this.listed?.mtimeMs !== mtimeMs) {
      const onDisk: string[] = [];
      for (const name of readdirSync(this.dir)) {
        const m = FILE.exec(name);
        if (m?.[1]) onDisk.push(m[1]);
      }
      this.listed = { mtimeMs, months: onDisk };
    }
    return [...new Set([...this.catalog.months(), ...this.listed.months])].sort().reverse();
  }

  /**
   * Partitions that can hold a match. An article is published no later than it
   * is collected (allowing a day of clock skew), so a month that ended more than
   * a day before `from` holds nothing at or after it.
   */
  private monthsFor(query: Pick<ArticleQuery, "filters">): string[] {
    const from = query.filters.from;
    if (from === undefined) return this.months();
    return this.months().filter((month) => monthEndPlusSkew(month) >= from);
  }

  private partition(month: string, create: boolean): ArticlePartition {
    let partition = this.open.get(month);
    if (!partition) {
      const path = this.pathOf(month);
      const isNew = create && !existsSync(path);
      partition = create ? openForWrite(month, path) : new ArticlePartition(month, path, { create: false });
      this.open.set(month, partition);
      if (isNew) this.catalog.add(month);
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

/**
 * The query as one partition runs it: filters resolved to its terms, the window
 * kept only where it cuts into the partition. Null when nothing here can match.
 */
function compile(
  partition: ArticlePartition,
  query: Pick<ArticleQuery, "filters">,
  match: string | undefined,
): PartitionSearch | null {
  const { count, bounds } = partition.stats();
  if (bounds === undefined) return null;
  const { from, to } = query.filters;
  if ((from !== undefined && from > bounds.newest) || (to !== undefined && to < bounds.oldest)) return null;
  const terms = partition.resolve(query.filters);
  if (terms === null) return null;
  const search: PartitionSearch = { terms, articles: count, newest: bounds.newest };
  if (match !== undefined) search.match = match;
  if (from !== undefined && from > bounds.oldest) search.from = from;
  if (to !== undefined && to < bounds.newest) search.to = to;
  return search;
}

/** published_at of the n-th newest candidate so far; undefined while there are fewer than n. */
function nthPublished(lists: ReadonlyArray<readonly Candidate[]>, n: number): string | undefined {
  if (lists.reduce((sum, l) => sum + l.length, 0) < n) return undefined;
  return mergeSorted(lists, byRecency, n)[n - 1]?.published_at;
}

/** The partition's candidates, marked with the month they came from (in place: there can be thousands). */
function tagged(hits: PartitionHit[], month: string): Candidate[] {
  for (const hit of hits) (hit as Candidate).month = month;
  return hits as Candidate[];
}

/** Score, then the same tie-break every partition ranks with: newer partition, then higher rowid. */
function byScore(a: Candidate, b: Candidate): number {
  return (b.score ?? 0) - (a.score ?? 0) || (a.month === b.month ? b.rowid - a.rowid : a.month < b.month ? 1 : -1);
}

function byRecency(a: { published_at: string; id: string }, b: { published_at: string; id: string }): number {
  if (a.published_at !== b.published_at) return a.published_at < b.published_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** 14-digit stamp one day after the last second of `YYYYMM`. */
function monthEndPlusSkew(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(4, 6));
  return toStamp(Date.UTC(y, m, 1) + 24 * 3600 * 1000);
}
