import { ANN_MIN_MATCHES } from "./partition-nearest.js";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { ArticleDetail } from "../../domain/article.js";
import { mergeFacets, shardSize, type Facet, type PartitionFacet } from "../../domain/facets.js";
import { FILTER_FIELDS, type FilterField } from "../../domain/filter-fields.js";
import type { ArticleQuery } from "../../domain/search-query.js";
import type { AggregateQuery, AggregateResult, AggregateRow, SearchHit, SearchResult, SignalPercentile, CandidatesChecked } from "../../ports/article-search.js";
import type { ArticleLookup, WriteResult } from "../../ports/article-store.js";
import type { EntitySpelling, EntitySpellings, EntitySpellingsQuery } from "../../ports/entity-lexicon.js";
import type { IndexBackend } from "../../ports/index-backend.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import type { IndexMaintenance, RebuildProgress, RebuildSummary } from "../../ports/index-maintenance.js";
import type { NearestArticle, NearestQuery, NearestResult, VectorLookup } from "../../ports/vector-search.js";
import { signalCode, signalOfCode, type SignalName } from "../../domain/vocabularies/signals-v1.js";
import type {
  LargestStories,
  StoryIndex,
  StoryMatch,
  StoryLookup,
  StoryMatches,
  StoryMember,
  StoryOverview,
  StoryQuery,
  StoryRelabel,
  StorySize,
  StorySizes,
} from "../../ports/story-index.js";
import { bySize, type SizedStory, type SizeOrder } from "../../domain/stories/story-order.js";
import { monthOf, toStamp } from "../../shared/timestamps.js";
import { cursorPage, type Candidate } from "./cursor-page.js";
import { ArticlePartition, closeQuietly } from "./article-partition.js";
import { bm25, sumStats, type RankFeatures, type RankStats } from "./bm25.js";
import { scoredPhrases, toFtsMatch } from "./fts-match.js";
import type { Keyset } from "./match-conditions.js";
import { mergeSorted } from "./merge-sorted.js";
import { openForWrite } from "./open-for-write.js";
import { PARTITION_FILE, PartitionCatalog, partitionPath } from "./partition-catalog.js";
import type { CheckedPart, QueryArgs } from "./partition-reads.js";
import type { PartitionHit } from "./partition-search.js";
import type { LargestStoriesPart, StoryMatchRow } from "./partition-stories.js";
import { unreadable, walkPartitions, type Walk } from "./partition-walker.js";
import { PartitionWriter } from "./partition-writer.js";
import { REBUILDABLE } from "./partition-schema.js";
import { prepareArticle } from "./prepared-article.js";
import { largestNeeded, nearestRank, percentileOfParts } from "../../domain/aggregate/percentile-rank.js";
import { mostExpensive, NO_USAGE, type IndexUsage } from "../../domain/billing/index-usage.js";
import { mostSharedHeadlines, RepresentativeChoice } from "../../domain/stories/representative.js";
import type { SignalValuesPart } from "./partition-signals.js";
import { NOT_STARTED, ReadPool, type Lane } from "./read-pool.js";
import type { MemberFields, StoryMonthOverview } from "./story-overview.js";
import { WriterThread } from "./writer-thread.js";
import { warnRecovered } from "../../shared/caught.js";
import type { ExportQuery, ExportWalk } from "../../ports/article-export.js";
import { openSqliteExport } from "./sqlite-export.js";

// The embedded index: one SQLite file per calendar month of `collected_at`
// under <dataDir>/index. A query walks every partition that can hold a match
// (partition-walker.ts), reading them on the read pool's threads
// (read-pool.ts), and merges here: each partition returns lightweight
// candidates (id, published_at, score), and documents are loaded only for the
// page returned. A partition that cannot be read is reported, not fatal.

/** Members whose documents are read at a time while looking for a story's representative. */
const REPRESENTATIVE_BATCH = 16;
/** Candidates a keyword search reads from each index beyond twice the page (see bm25.ts). */
const RANK_MARGIN = 10;

export interface SqliteIndexOptions {
  /**
   * Run writes on a worker thread (default), so an ingest parses the next
   * batch while the last one is written; false writes on the calling thread.
   */
  writerThread?: boolean;
  /** Read threads per lane (read-pool.ts); by default as many heavy ones as cores (at most 4), and one light one. */
  readThreads?: Record<Lane, number>;
  /** Semantic ranking: an index's HNSW graph answers when its filters can match at least this many articles. */
  annMinMatches?: number;
}

export class SqliteIndexBackend implements IndexBackend, StoryIndex, IndexMaintenance {
  private readonly dir: string;
  private readonly catalog: PartitionCatalog;
  private readonly pool: ReadPool;
  private readonly annMinMatches: number;
  /** Open write connections, when writes run on this thread. */
  private readonly writers = new Map<string, PartitionWriter>();
  private readonly writer: WriterThread | undefined;
  private listed: { mtimeMs: number; months: string[] } | undefined;

  constructor(dataDir: string, options: SqliteIndexOptions = {}) {
    this.dir = join(dataDir, "index");
    mkdirSync(this.dir, { recursive: true });
    this.catalog = new PartitionCatalog(this.dir);
    if (options.writerThread ?? true) this.writer = new WriterThread();
    this.pool = new ReadPool(this.dir, options.readThreads ?? { heavy: Math.min(4, availableParallelism()), light: 1 });
    this.annMinMatches = options.annMinMatches ?? ANN_MIN_MATCHES;
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
        inserted += this.writerOf(month).write(batch.map(prepareArticle));
      }
    }
    return { inserted, unchanged: articles.length - inserted };
  }

  async search(query: ArticleQuery): Promise<SearchResult> {
    const startedMs = Date.now();
    const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
    const cursorMode = query.cursor !== undefined && match === undefined;
    const after = query.cursor?.after ?? null;
    const keyset = after && cursorMode ? { published_at: after.published_at, id: after.id } : undefined;
    const n = cursorMode ? query.limit + 1 : query.offset + query.limit;
    const phrases = query.keywords ? scoredPhrases(query.keywords) : undefined;
    // A keyword search keeps more than the page from each index: corpus-wide scores reorder them (bm25.ts).
    const fetched = phrases ? n * 2 + RANK_MARGIN : n;
    const facetCodes = (query.facets?.fields ?? []).map((f) => FILTER_FIELDS[f].code);
    const facets = facetCodes.length > 0 ? { codes: facetCodes, depth: shardSize(query.facets?.limit ?? 10) } : undefined;
    const args: QueryArgs = queryArgs(query, match);
    // A browse page is a light read; ranking every keyword match or counting facets is heavy.
    const lane: Lane = match === undefined && facets === undefined ? "light" : "heavy";
    const options = { lane, budgetMs: query.budgetMs, startedMs };

    const participants: string[] = [];
    const lists: Candidate[][] = [];
    const facetParts: Array<[string, Map<number, PartitionFacet>]> = [];
    const rankings: RankStats[] = [];
    let total = 0;
    let checked: CheckedSum | undefined;
    const months = this.monthsFor(query);
    const [walk] = await Promise.all([
      walkPartitions(
        this.pool,
        months,
        options,
        (month, deadline) => ({
          job: "search",
          month,
          args: {
            ...args,
            n: fetched,
            ...(phrases ? { phrases } : {}),
            ...(keyset ? { keyset } : {}),
            ...(facets ? { facets } : {}),
            // A browse: an index whose newest article is older than the n-th candidate found so far cannot place any
            // on the page.
            ...(match === undefined ? { floor: nthPublished(lists, n) } : {}),
            ...(deadline === undefined ? {} : { deadline }),
          },
        }),
        (month, part) => {
          total += part.total;
          if (part.facets) facetParts.push([month, part.facets]);
          if (part.hits) lists.push(tagged(part.hits, month, part.features));
          if (part.matched) participants.push(month);
          if (part.ranking) rankings.push(part.ranking);
          if (part.checked) checked = addChecked(checked, part.checked);
        },
      ),
      phrases ? this.otherStats(months, phrases, rankings) : undefined,
    ]);

    const ranked = match !== undefined;
    if (phrases) {
      const corpus = sumStats(rankings, phrases.length);
      for (const list of lists) {
        for (const hit of list) if (hit.features) hit.score = bm25(hit.features, corpus);
        list.sort(byScore);
      }
    }
    // Each list is in the merged order already (partitions rank with the same tie-breaks).
    const merged = mergeSorted(lists, ranked ? byScore : byRecency, n);
    let page: Candidate[];
    let cursor: SearchResult["cursor"];
    if (cursorMode) {
      const outcome = await cursorPage(merged, query.limit, after, (resume, k) =>
        this.refetch(participants, args, resume, k, walk),
      );
      page = outcome.page;
      cursor = outcome.outcome;
    } else {
      page = merged.slice(query.offset, n);
    }

    const docs = await this.loadDocs(page, walk);
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
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
      usage: usageOf(walk, checked),
    };
    if (query.facets) {
      // Merged in month order, newest first, whatever order the months were read in.
      const parts = facetParts.sort((a, b) => (a[0] < b[0] ? 1 : -1)).map(([, part]) => part);
      const merged: Partial<Record<FilterField, Facet>> = {};
      for (const field of query.facets.fields) {
        const code = FILTER_FIELDS[field].code;
        merged[field] = mergeFacets(
          parts.flatMap((part) => part.get(code) ?? []),
          query.facets.limit,
        );
      }
      result.facets = merged;
    }
    if (cursor) result.cursor = cursor;
    if (query.check) result.candidates = { approximate: checked?.approximate ?? false, passed: checked?.passed ?? 0 };
    return result;
  }

  async signalPercentile(
    query: Pick<ArticleQuery, "keywords" | "filters" | "budgetMs">,
    signal: SignalName,
    percentile: number,
  ): Promise<SignalPercentile> {
    const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
    const args: QueryArgs = match === undefined ? { filters: query.filters } : { filters: query.filters, match };
    const code = signalCode(signal);
    const startedMs = Date.now();
    // First pass: each index's values, or only their count where they can be read in order from their own index.
    const parts = new Map<string, SignalValuesPart>();
    const walk = await walkPartitions(
      this.pool,
      this.monthsFor(query),
      { lane: "heavy", budgetMs: query.budgetMs, startedMs },
      (month, deadline) => ({
        job: "signalValues",
        month,
        args: { ...args, code, ...(deadline === undefined ? {} : { deadline }) },
      }),
      (month, part) => parts.set(month, part),
    );
    // Second pass, over those that gave a count only: their largest values, as many as the percentile needs.
    const top = largestNeeded(
      [...parts.values()].reduce((n, p) => n + p.count, 0),
      percentile,
    );
    const short = [...parts].filter(([, p]) => p.values.length < Math.min(p.count, top)).map(([month]) => month);
    if (short.length > 0) {
      const again = await walkPartitions(
        this.pool,
        short,
        { lane: "heavy", budgetMs: query.budgetMs, startedMs },
        (month, deadline) => ({
          job: "signalValues",
          month,
          args: { ...args, code, top, ...(deadline === undefined ? {} : { deadline }) },
        }),
        // The count stays the first pass's: `top` was sized on it, and an index still being written may hold more
        // now (its largest values then include the newcomers that rank, never fewer than needed).
        (month, part) => parts.set(month, { count: parts.get(month)?.count ?? part.count, values: part.values }),
      );
      // An index that failed now counts for nothing: the rest still hold their share of the largest values
      // (fewer values in all need no more of them).
      for (const failure of again.failed) parts.delete(failure.partition);
      absorb(walk, again);
    }
    return {
      value: percentileOfParts([...parts.values()], percentile),
      // Exact over what was read; a scan the budget cut short saw only part of the values.
      approximate: walk.failed.some((f) => f.kind === "timed_out"),
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
    };
  }

  /**
   * The ranking statistics of the monthly indexes a keyword search does not read: corpus-wide scores count every
   * index. One that cannot be read counts for nothing (the search's coverage is about the indexes it reads).
   */
  private async otherStats(read: readonly string[], phrases: string[], rankings: RankStats[]): Promise<void> {
    await walkPartitions(
      this.pool,
      this.months().filter((m) => !read.includes(m)),
      { lane: "heavy", startedMs: Date.now() },
      (month) => ({ job: "rankStats", month, args: { phrases } }),
      (_month, stats) => rankings.push(stats),
    );
  }

  /** Candidates after `keyset` from every index that matched, merged newest first. */
  private async refetch(months: string[], args: QueryArgs, keyset: Keyset, k: number, walk: Walk): Promise<Candidate[]> {
    const lists: Candidate[][] = [];
    const again = await walkPartitions(
      this.pool,
      months.filter((m) => !walk.failed.some((f) => f.partition === m)),
      { lane: "light", startedMs: Date.now() },
      (month) => ({ job: "candidates", month, args: { ...args, n: k, keyset } }),
      (month, hits) => lists.push(tagged(hits, month)),
    );
    absorb(walk, again);
    return mergeSorted(lists, byRecency, k);
  }

  /** Loads the documents of the page from the partitions that ranked them. */
  private async loadDocs(page: ReadonlyArray<{ id: string; month: string }>, walk: Walk): Promise<Map<string, string>> {
    const byMonth = new Map<string, string[]>();
    for (const hit of page) {
      let ids = byMonth.get(hit.month);
      if (!ids) byMonth.set(hit.month, (ids = []));
      ids.push(hit.id);
    }
    const docs = new Map<string, string>();
    const loaded = await walkPartitions(
      this.pool,
      [...byMonth.keys()],
      { lane: "light", startedMs: Date.now() },
      (month) => ({ job: "docs", month, args: { ids: byMonth.get(month) ?? [] } }),
      (_month, found) => {
        for (const [id, doc] of found) docs.set(id, doc);
      },
    );
    absorb(walk, loaded);
    return docs;
  }

  /**
   * One story within a window (ports/story-index.ts). Its members are read as
   * narrow rows, its counts per publisher and headline come from each monthly
   * index's story tables, and documents are read only for the representative,
   * the first reporter and the newest `limit` members. An article id given in
   * place of a story id resolves to that article's story (a story absorbed by
   * a merge lives on in the merged one).
   */
  async storyOverview(
    storyId: string,
    window: { from?: string | undefined; to?: string | undefined },
    options: { limit: number; sources: number },
  ): Promise<StoryLookup> {
    const parts: Array<{ month: string; overview: StoryMonthOverview }> = [];
    // A story's id is its earliest member's, so no member was collected in a month before the id's.
    const first = /^\d{14}/.test(storyId) ? monthOf(storyId) : "";
    const months = this.months().filter((m) => m >= first && (window.from === undefined || monthEndPlusSkew(m) >= window.from));
    const span = { ...(window.from ? { from: window.from } : {}), ...(window.to ? { to: window.to } : {}) };
    const walk = await walkPartitions(
      this.pool,
      months,
      { lane: "light", startedMs: Date.now() },
      (month) => ({ job: "storyOverview", month, args: { storyId, ...span } }),
      (month, overview) => {
        if (overview !== undefined) parts.push({ month, overview });
      },
    );
    if (parts.length === 0 && /^\d{14}/.test(storyId)) {
      const current = await this.storyOfArticle(storyId);
      if (current !== undefined && current !== storyId) return this.storyOverview(current, window, options);
    }
    const lookup = (story: StoryOverview | undefined): StoryLookup => ({
      story,
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
    });
    if (parts.length === 0) return lookup(undefined);

    const members = parts.flatMap(({ month, overview }) =>
      overview.members.map(([rowid, id, published_at]) => ({ month, rowid, id, published_at })),
    );
    // Each monthly index lists its members earliest first; only a story in several needs them merged.
    if (parts.length > 1) members.sort((a, b) => -byRecency(a, b));
    const sources = new Map<string, { value: string; articles: number }>();
    const headlines = new Map<string, number>();
    for (const { overview } of parts) {
      for (const { key, value, articles } of overview.sources) {
        const seen = sources.get(key);
        if (seen) seen.articles += articles;
        else sources.set(key, { value, articles });
      }
      for (const { headline, articles } of overview.headlines) headlines.set(headline, (headlines.get(headline) ?? 0) + articles);
    }
    // The representative (domain/stories/representative.ts): documents are read earliest first until it is met.
    const choice = new RepresentativeChoice<StoryMember>(mostSharedHeadlines(headlines));
    let chosen = false;
    for (let at = 0; !chosen && at < members.length; at += REPRESENTATIVE_BATCH) {
      const batch = members.slice(at, at + REPRESENTATIVE_BATCH);
      const fields = await this.memberFields(batch, walk);
      for (const m of batch) {
        const f = fields.get(m.id);
        if (f === undefined) continue;
        chosen = choice.offer({ id: m.id, title: f.title, url: f.url, source: f.source, published_at: m.published_at });
        if (chosen) break;
      }
    }
    const firstReported = choice.first;
    const representative = choice.chosen;
    if (firstReported === undefined || representative === undefined) return lookup(undefined);

    const newest = members.slice(Math.max(0, members.length - options.limit)).reverse();
    const docs = await this.loadDocs(newest, walk);
    const listed = newest.flatMap((m) => {
      const doc = docs.get(m.id);
      return doc === undefined ? [] : [JSON.parse(doc) as ArticleDetail];
    });
    return lookup({
      story_id: storyId,
      count: members.length,
      outlets: sources.size,
      sources: [...sources.entries()]
        .sort(([ka, a], [kb, b]) => b.articles - a.articles || (ka < kb ? -1 : ka > kb ? 1 : 0))
        .slice(0, options.sources)
        .map(([, s]) => s.value),
      representative,
      first_reported: firstReported,
      listed,
    });
  }

  /** Title, url and publisher of the given members, by article id. */
  private async memberFields(
    members: ReadonlyArray<{ month: string; rowid: number; id: string }>,
    walk: Walk,
  ): Promise<Map<string, MemberFields>> {
    const byMonth = new Map<string, Array<{ rowid: number; id: string }>>();
    for (const m of members) {
      let rows = byMonth.get(m.month);
      if (!rows) byMonth.set(m.month, (rows = []));
      rows.push(m);
    }
    const fields = new Map<string, MemberFields>();
    const read = await walkPartitions(
      this.pool,
      [...byMonth.keys()],
      { lane: "light", startedMs: Date.now() },
      (month) => ({ job: "memberFields", month, args: { rowids: (byMonth.get(month) ?? []).map((m) => m.rowid) } }),
      (month, found) => {
        for (const m of byMonth.get(month) ?? []) {
          const f = found.get(m.rowid);
          if (f) fields.set(m.id, f);
        }
      },
    );
    absorb(walk, read);
    return fields;
  }

  private async storyOfArticle(articleId: string): Promise<string | undefined> {
    const month = monthOf(articleId);
    if (!existsSync(this.pathOf(month))) return undefined;
    try {
      const story = await this.pool.run("light", { job: "storyOf", month, args: { articleId } });
      return story === NOT_STARTED ? undefined : story;
    } catch (error) {
      // The article's story is a detail of its answer: without it the article answers alone.
      warnRecovered(`reading the story of ${articleId}`, error);
      return undefined;
    }
  }

  /**
   * Every story with a match, merged across monthly indexes (newest match,
   * best score). Indexes are read newest first within the query's budget, as
   * a search reads them.
   */
  async matchStories(query: StoryQuery): Promise<StoryMatches> {
    const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
    const args: QueryArgs = queryArgs(query, match);
    let checked: CheckedSum | undefined;
    const options = { lane: "heavy" as const, budgetMs: query.budgetMs, startedMs: Date.now() };
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
    const newest = query.newest === undefined ? {} : { newest: query.newest };
    const walk = await walkPartitions(
      this.pool,
      this.monthsFor(query),
      options,
      (month, deadline) => ({
        job: "storyMatches",
        month,
        args: { ...args, ...newest, ...(deadline === undefined ? {} : { deadline }) },
      }),
      (_month, part) => {
        for (const [story_id, found] of part.stories) keep(story_id, found);
        for (const story_id of part.all ?? []) others.add(story_id);
        if (part.checked) checked = addChecked(checked, part.checked);
      },
    );
    for (const story_id of stories.keys()) others.delete(story_id);
    const found: StoryMatches = {
      stories: [...stories.values()],
      total: stories.size + others.size,
      partitionsRead: walk.read,
      partitionsFailed: walk.failed,
      usage: usageOf(walk, checked),
    };
    if (query.check) {
      const approximate = checked?.approximate ?? false;
      const passed = checked?.passed ?? 0;
      // Stories among the checked candidates; past the cut, the total is scaled like the articles' (partition-candidates.ts).
      found.candidates = { approximate, passed: stories.size };
      if (approximate && passed > 0) found.total = Math.round((stories.size * (checked?.total ?? 0)) / passed);
    }
    return found;
  }

  /**
   * The largest matching stories. A query that takes every article of each
   * monthly index it reads (a browse of the whole corpus or of whole months) is
   * answered from the sizes kept at write time: each index gives its first `n`
   * stories and the stories that began in an earlier index; only those, which
   * span indexes, are sized across them. Any other query matches its stories
   * and sizes every one of them.
   */
  async largestStories(query: StoryQuery, order: SizeOrder, n: number, sizesFrom: string | undefined): Promise<LargestStories> {
    const whole =
      query.keywords === undefined && query.filters.to === undefined && query.check === undefined
        ? await this.largestOfWholeIndexes(query, order, n, sizesFrom)
        : undefined;
    if (whole !== undefined) return whole;
    const matches = await this.matchStories(query);
    const all = await this.storySizes(
      matches.stories.map((s) => s.story_id),
      sizesFrom,
    );
    const stories = matches.stories
      .map((match): SizedStory => ({ ...match, ...(all.sizes.get(match.story_id) ?? { count: 0, outlets: 0 }) }))
      .sort(bySize(order))
      .slice(0, n);
    return {
      stories,
      total: matches.total,
      partitionsRead: matches.partitionsRead,
      partitionsFailed: [...matches.partitionsFailed, ...all.partitionsFailed],
      ...(matches.candidates ? { candidates: matches.candidates } : {}),
      usage: matches.usage,
    };
  }

  /** largestStories from the kept sizes alone; undefined when the query or the reach cuts into a monthly index. */
  private async largestOfWholeIndexes(
    query: StoryQuery,
    order: SizeOrder,
    n: number,
    sizesFrom: string | undefined,
  ): Promise<LargestStories | undefined> {
    const months = this.monthsFor(query);
    const parts: Array<[string, LargestStoriesPart]> = [];
    let cut = false;
    const walk = await walkPartitions(
      this.pool,
      months,
      { lane: "heavy", budgetMs: query.budgetMs, startedMs: Date.now() },
      (month) => ({
        job: "largestStories",
        month,
        args: { filters: query.filters, order, k: n, ...(sizesFrom === undefined ? {} : { sizesFrom }) },
      }),
      (month, part) => {
        if (part === undefined) cut = true;
        else parts.push([month, part]);
      },
    );
    if (cut) return undefined;
    // A story counted in several indexes: every index after the one it began in lists it as continued.
    const spanning = new Map<string, SizedStory>();
    let total = 0;
    for (const [, part] of parts) {
      total += part.stories - part.continued.length;
      for (const row of part.continued) {
        const seen = spanning.get(row.story_id);
        if (seen === undefined) spanning.set(row.story_id, { ...row });
        else if (row.newest > seen.newest) seen.newest = row.newest;
      }
    }
    // A story that began before the months read is counted once, in none of them as its home.
    for (const story of spanning.keys()) if (!months.includes(monthOf(story))) total++;
    const sized = await this.sizeStories([...spanning.keys()], sizesFrom);
    for (const [story, { count, outlets, newest }] of sized.sizes) {
      const row = spanning.get(story) as SizedStory;
      Object.assign(row, { count, outlets });
      if (newest > row.newest) row.newest = newest;
    }
    const single = parts.flatMap(([, part]) => part.top.filter((row) => !spanning.has(row.story_id)));
    const stories = [...single, ...spanning.values()].sort(bySize(order)).slice(0, n);
    return {
      stories,
      total,
      partitionsRead: readOf(walk),
      partitionsFailed: [...walk.failed, ...sized.partitionsFailed],
      usage: usageOf(walk, undefined),
    };
  }

  /**
   * Members and outlets of each story, from the sizes each monthly index keeps
   * at write time. A monthly index that `from` cuts into counts the members at
   * or after `from` instead. Outlets are exact: a story found in more than one
   * monthly index counts the union of their publishers, since an outlet can
   * cover it in both.
   */
  async storySizes(storyIds: readonly string[], from: string | undefined): Promise<StorySizes> {
    const { sizes, partitionsRead, partitionsFailed } = await this.sizeStories(storyIds, from);
    const counts = new Map([...sizes].map(([story, { count, outlets }]) => [story, { count, outlets }]));
    return { sizes: counts, partitionsRead, partitionsFailed };
  }

  /** storySizes with each story's newest member (the empty string for a story with none). */
  private async sizeStories(
    storyIds: readonly string[],
    from: string | undefined,
  ): Promise<Omit<StorySizes, "sizes"> & { sizes: Map<string, StorySize & { newest: string }> }> {
    const sizes = new Map(storyIds.map((id) => [id, { count: 0, outlets: 0, newest: "" }]));
    if (storyIds.length === 0) return { sizes, partitionsRead: [], partitionsFailed: [] };
    const ids = [...sizes.keys()];
    const parts = new Map<string, StoryPart[]>();
    // A story's id is its earliest member's, so no member was collected in a month before the earliest id's.
    const first = monthOf(ids.reduce((a, b) => (b < a ? b : a)));
    const months = this.months().filter((m) => m >= first && (from === undefined || monthEndPlusSkew(m) >= from));
    const walk = await walkPartitions(
      this.pool,
      months,
      { lane: "heavy", startedMs: Date.now() },
      (month) => ({ job: "storySizes", month, args: { storyIds: ids, ...(from ? { from } : {}) } }),
      (month, part) => {
        for (const { story, count, outlets, newest, sources } of part.rows) {
          const size = sizes.get(story);
          if (size === undefined) continue;
          if (newest > size.newest) size.newest = newest;
          const found: StoryPart = { month, count, outlets };
          if (sources) found.sources = new Set(sources);
          const seen = parts.get(story);
          if (seen === undefined) parts.set(story, [found]);
          else seen.push(found);
        }
      },
    );
    await this.unionSources(parts, walk);
    for (const [story, found] of parts) {
      const size = sizes.get(story) as StorySize & { newest: string };
      size.count = found.reduce((sum, p) => sum + p.count, 0);
      if (found.length === 1) size.outlets = (found[0] as StoryPart).outlets;
      else size.outlets = new Set(found.flatMap((p) => [...(p.sources ?? [])])).size;
    }
    return { sizes, partitionsRead: readOf(walk), partitionsFailed: walk.failed };
  }

  /** Reads the publishers of each story part that has only their count, for stories found in several monthly indexes. */
  private async unionSources(parts: ReadonlyMap<string, StoryPart[]>, walk: Walk): Promise<void> {
    const byMonth = new Map<string, Map<string, StoryPart>>();
    for (const [story, found] of parts) {
      if (found.length < 2) continue;
      for (const part of found) {
        if (part.sources !== undefined) continue;
        part.sources = new Set();
        let stories = byMonth.get(part.month);
        if (!stories) byMonth.set(part.month, (stories = new Map()));
        stories.set(story, part);
      }
    }
    const read = await walkPartitions(
      this.pool,
      [...byMonth.keys()],
      { lane: "heavy", startedMs: Date.now() },
      (month) => ({ job: "storySourceKeys", month, args: { storyIds: [...(byMonth.get(month)?.keys() ?? [])] } }),
      (month, rows) => {
        const stories = byMonth.get(month);
        for (const { story, source } of rows) stories?.get(story)?.sources?.add(source);
      },
    );
    absorb(walk, read);
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
        else this.writerOf(month).relabel(change.story_id, ids);
      }
    }
  }

  /** An export's keyset walk over the monthly indexes that can hold a match (sqlite-export.ts). */
  openExport(query: ExportQuery, tieLimit: number): Promise<ExportWalk> {
    return openSqliteExport(this.pool, this.monthsFor(query), query, tieLimit);
  }

  async getArticle(id: string): Promise<ArticleLookup> {
    const month = this.indexOf(id);
    if (typeof month !== "string") return month;
    try {
      const doc = await this.pool.run("light", { job: "doc", month, args: { id } });
      if (doc === NOT_STARTED || doc === undefined) return { status: "absent" };
      return { status: "found", article: JSON.parse(doc) as ArticleDetail };
    } catch (error) {
      return { status: "unavailable", reason: unreadable(month, error).reason };
    }
  }

  /** Spellings by er-v1 key (ports/index-backend.ts): each monthly index the window reaches, merged by folded value. */
  async entitySpellings(query: EntitySpellingsQuery): Promise<EntitySpellings> {
    const merged = new Map<string, EntitySpelling>();
    let truncated = false;
    // One query per index, and a second where the window cut into it and each spelling was checked against it.
    let queries = 0;
    const { budgetMs, ...args } = query;
    const window = { ...(args.from === undefined ? {} : { from: args.from }), ...(args.to === undefined ? {} : { to: args.to }) };
    const walk = await walkPartitions(
      this.pool,
      this.monthsFor({ filters: window }),
      { lane: "light", budgetMs, startedMs: Date.now() },
      (month) => ({ job: "entitySpellings", month, args: { ...args, ...window } }),
      (_month, part) => {
        truncated ||= part.truncated;
        queries = Math.max(queries, part.windowChecked ? 2 : 1);
        for (const spelling of part.spellings) {
          const seen = merged.get(spelling.key);
          if (seen === undefined) merged.set(spelling.key, { ...spelling });
          else seen.articles = query.counts ? seen.articles + spelling.articles : 1;
        }
      },
    );
    const spellings = [...merged.values()].sort((a, b) => b.articles - a.articles || (a.key < b.key ? -1 : 1));
    if (spellings.length > query.limit) {
      spellings.length = query.limit;
      truncated = true;
    }
    return {
      spellings,
      truncated,
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
      usage: { indexQueries: queries, candidatesExamined: 0 },
    };
  }

  /** A time series (ports/index-backend.ts): each monthly index groups its matches; buckets are summed here. */
  async aggregate(query: AggregateQuery): Promise<AggregateResult> {
    const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
    const args: QueryArgs = match === undefined ? { filters: query.filters } : { filters: query.filters, match };
    const codes = (query.signals?.names ?? []).map(signalCode);
    const metrics = codes.length > 0 ? { ...query.metrics, signals: codes } : query.metrics;
    const rows = new Map<string, AggregateRow>();
    // Each signal's intensities per bucket, gathered from every index: the percentile is exact across indexes.
    const values = new Map<string, Map<number, number[]>>();
    const walk = await walkPartitions(
      this.pool,
      this.monthsFor(query),
      { lane: "heavy", budgetMs: query.budgetMs, startedMs: Date.now() },
      (month) => ({ job: "aggregate", month, args: { ...args, interval: query.interval, metrics } }),
      (_month, part) => {
        for (const { signals, ...row } of part.rows) {
          if (signals !== undefined) {
            const bucket = values.get(row.bucket) ?? new Map<number, number[]>();
            values.set(row.bucket, bucket);
            for (const [code, list] of Object.entries(signals)) {
              const kept = bucket.get(Number(code));
              if (kept === undefined) bucket.set(Number(code), list);
              else for (const value of list) kept.push(value);
            }
          }
          const seen = rows.get(row.bucket);
          if (seen === undefined) {
            rows.set(row.bucket, { ...row, approximate: false });
            continue;
          }
          seen.articles += row.articles;
          if (row.stories !== undefined) seen.stories = (seen.stories ?? 0) + row.stories;
          if (row.outlets !== undefined) seen.outlets = (seen.outlets ?? 0) + row.outlets;
          if (row.first !== null && (seen.first === null || row.first < seen.first)) seen.first = row.first;
          if (row.last !== null && (seen.last === null || row.last > seen.last)) seen.last = row.last;
          // Distinct counts of several indexes are summed: an upper bound.
          seen.approximate = true;
        }
      },
    );
    const percentile = query.signals?.percentile ?? 50;
    for (const [bucket, bySignal] of values) {
      const row = rows.get(bucket);
      if (row === undefined) continue;
      row.signals = {};
      for (const [code, list] of bySignal) {
        const name = signalOfCode(code);
        if (name === undefined || list.length === 0) continue;
        const sorted = Float64Array.from(list).sort();
        const mean = sorted.reduce((sum, v) => sum + v, 0) / sorted.length;
        row.signals[name] = { mean, percentile: nearestRank(sorted, percentile) as number, articles: sorted.length };
      }
    }
    return { rows: [...rows.values()], partitionsRead: readOf(walk), partitionsFailed: walk.failed };
  }

  async rebuildDerived(
    options: { batch?: number; onProgress?: (progress: RebuildProgress) => void } = {},
  ): Promise<RebuildSummary> {
    const months: string[] = [];
    const skipped: Array<{ month: string; reason: string }> = [];
    let articles = 0;
    for (const month of [...this.months()].reverse()) {
      const path = this.pathOf(month);
      if (!existsSync(path)) continue;
      let writer: PartitionWriter;
      try {
        // On this thread, beside the server's connections: each batch is a short transaction, so reads go on.
        writer = new PartitionWriter(new ArticlePartition(month, path, { create: true }));
      } catch (error) {
        skipped.push({ month, reason: error instanceof Error ? error.message : String(error) });
        continue;
      }
      try {
        const built = writer.partition.derivedFields();
        if (REBUILDABLE.every((v) => built.has(v))) continue;
        months.push(month);
        const total = writer.partition.count();
        let done = writer.resumedAt();
        options.onProgress?.({ month, done, total });
        for (let n = writer.rebuildDerived(options.batch ?? 1000); n > 0; n = writer.rebuildDerived(options.batch ?? 1000)) {
          done += n;
          articles += n;
          options.onProgress?.({ month, done, total });
        }
      } finally {
        writer.close();
      }
    }
    return { months, articles, skipped };
  }

  async getArticles(
    ids: readonly string[],
  ): Promise<{ articles: Map<string, ArticleDetail>; partitionsFailed: PartitionFailure[] }> {
    const walk: Walk = { read: [], failed: [] };
    const docs = await this.loadDocs(
      ids.filter((id) => /^\d{14}/.test(id)).map((id) => ({ id, month: monthOf(id) })),
      walk,
    );
    const articles = new Map<string, ArticleDetail>();
    for (const id of ids) {
      const doc = docs.get(id);
      if (doc !== undefined) articles.set(id, JSON.parse(doc) as ArticleDetail);
    }
    return { articles, partitionsFailed: walk.failed };
  }

  /** Each monthly index ranks its filter matches (partition-nearest.ts: graph or exact scan); the lists are merged by score. */
  async nearest(query: NearestQuery): Promise<NearestResult> {
    const lists: NearestArticle[] = [];
    const unembedded: string[] = [];
    let scored = 0;
    const { vector, model, k, filters } = query;
    const exclude = query.excludeStory === undefined ? {} : { excludeStory: query.excludeStory };
    const walk = await walkPartitions(
      this.pool,
      this.monthsFor(query),
      { lane: "heavy", budgetMs: query.budgetMs, startedMs: Date.now() },
      (month) => ({ job: "nearest", month, args: { filters, vector, model, k, annMinMatches: this.annMinMatches, ...exclude } }),
      (month, part) => {
        scored += part.scored;
        if (part.unembedded > 0) unembedded.push(month);
        for (const hit of part.hits) {
          lists.push({ id: hit.id, story_id: hit.story_id, published_at: hit.published_at, score: hit.score });
        }
      },
    );
    // Ties: the newer article first, as keyword ranking breaks them.
    lists.sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return {
      hits: lists.slice(0, k),
      scored,
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
      partitionsUnembedded: unembedded.filter((m) => !walk.failed.some((f) => f.partition === m)),
    };
  }

  async vectorOf(id: string, model: string): Promise<VectorLookup> {
    const month = this.indexOf(id);
    if (typeof month !== "string") return month;
    try {
      const found = await this.pool.run("light", { job: "vectorOf", month, args: { id, model } });
      if (found === NOT_STARTED) return { status: "unavailable", reason: `the monthly index ${month} was not read in time` };
      return found;
    } catch (error) {
      return { status: "unavailable", reason: unreadable(month, error).reason };
    }
  }

  /** The monthly index holding an article id (its 14-digit prefix names it), or why there is none to ask. */
  private indexOf(id: string): string | { status: "absent" } | { status: "unavailable"; reason: string } {
    if (!/^\d{14}/.test(id)) return { status: "absent" };
    const month = monthOf(id);
    if (existsSync(this.pathOf(month))) return month;
    return this.catalog.months().includes(month)
      ? { status: "unavailable", reason: `the monthly index ${month} is missing` }
      : { status: "absent" };
  }

  async count(): Promise<number> {
    let total = 0;
    await walkPartitions(
      this.pool,
      this.months(),
      { lane: "light", startedMs: Date.now() },
      (month) => ({ job: "count", month, args: {} }),
      (_month, count) => {
        total += count;
      },
    );
    return total;
  }

  async close(): Promise<void> {
    await this.writer?.close();
    await this.pool.close();
    for (const month of [...this.writers.keys()]) this.forget(month);
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
        const m = PARTITION_FILE.exec(name);
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

  /** Writes on this thread: one write connection per month, kept open. */
  private writerOf(month: string): PartitionWriter {
    let writer = this.writers.get(month);
    if (!writer) {
      const path = this.pathOf(month);
      const isNew = !existsSync(path);
      writer = openForWrite(month, path);
      this.writers.set(month, writer);
      if (isNew) this.catalog.add(month);
    }
    return writer;
  }

  private forget(month: string): void {
    closeQuietly(this.writers.get(month));
    this.writers.delete(month);
  }

  /** The file of a monthly index. */
  pathOf(month: string): string {
    return partitionPath(this.dir, month);
  }
}

/** The query as each monthly index is asked it. */
function queryArgs(query: Pick<ArticleQuery, "filters" | "check">, match: string | undefined): QueryArgs {
  return {
    filters: query.filters,
    ...(match === undefined ? {} : { match }),
    ...(query.check === undefined ? {} : { check: query.check }),
  };
}

/** Candidates checked across monthly indexes: charged for the most one index examined, not the sum. */
function addChecked(sum: CheckedSum | undefined, part: CheckedPart): CheckedSum {
  return {
    examined: Math.max(sum?.examined ?? 0, part.examined),
    approximate: (sum?.approximate ?? false) || part.cut,
    passed: (sum?.passed ?? 0) + part.passed,
    total: (sum?.total ?? 0) + part.total,
  };
}

/** Candidates checked so far, and the matches they stand for (estimated past the cut). */
type CheckedSum = CandidatesChecked & { examined: number; total: number };

/** A read's usage: one query in each index it read (none when it read none), and the candidates checked. */
function usageOf(walk: Walk, checked: CheckedSum | undefined): IndexUsage {
  const read = walk.read.length > 0 ? { indexQueries: 1, candidatesExamined: 0 } : NO_USAGE;
  return mostExpensive(read, { indexQueries: 0, candidatesExamined: checked?.examined ?? 0 });
}

/** Indexes read in full, less those a later read of the same query (documents, a further page) failed on. */
function readOf(walk: Walk): string[] {
  return walk.read.filter((m) => !walk.failed.some((f) => f.partition === m));
}

/** A story's members in one monthly index; `sources` (folded publishers) when read. */
interface StoryPart {
  month: string;
  count: number;
  outlets: number;
  sources?: Set<string>;
}

/** Adds the failures of a later walk of the same query to its first. */
function absorb(walk: Walk, later: Walk): void {
  for (const failure of later.failed) {
    if (!walk.failed.some((f) => f.partition === failure.partition)) walk.failed.push(failure);
  }
}

/** published_at of the n-th newest candidate so far; undefined while there are fewer than n. */
function nthPublished(lists: ReadonlyArray<readonly Candidate[]>, n: number): string | undefined {
  if (lists.reduce((sum, l) => sum + l.length, 0) < n) return undefined;
  return mergeSorted(lists, byRecency, n)[n - 1]?.published_at;
}

/**
 * The partition's candidates, marked with the month they came from and what corpus-wide scoring needs (in place:
 * there can be thousands).
 */
function tagged(hits: PartitionHit[], month: string, features?: RankFeatures[]): Candidate[] {
  hits.forEach((hit, i) => {
    (hit as Candidate).month = month;
    const f = features?.[i];
    if (f) (hit as Candidate).features = f;
  });
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
