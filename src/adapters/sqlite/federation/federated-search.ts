import type { ArticleDetail } from "../../../domain/article.js";
import { mergeFacets, shardSize, type Facet, type PartitionFacet } from "../../../domain/facets.js";
import { FILTER_FIELDS, type FilterField } from "../../../domain/filter-fields.js";
import type { ArticleQuery } from "../../../domain/search-query.js";
import type { SearchHit, SearchResult } from "../../../ports/article-search.js";
import { bm25, sumStats, type RankStats } from "../bm25.js";
import type { MonthlyIndexes } from "../catalog/monthly-indexes.js";
import { cursorPage, type Candidate } from "../cursor-page.js";
import { scoredPhrases, toFtsMatch } from "../fts-match.js";
import type { Keyset } from "../match-conditions.js";
import { mergeSorted } from "../merge-sorted.js";
import type { QueryArgs } from "../partition-reads.js";
import { walkOf, walkPartitions, type Walk } from "../partition-walker.js";
import { NOT_STARTED, type Lane, type ReadPool } from "../read-pool.js";
import type { BrowsePage } from "../partition-browse.js";
import type { FederatedDocuments } from "./federated-documents.js";
import {
  absorb,
  addChecked,
  byRecency,
  byScore,
  nthPublished,
  queryArgs,
  readOf,
  tagged,
  usageOf,
  type CheckedSum,
} from "./walk-merge.js";

// Search across monthly indexes: each index returns lightweight candidates
// (id, published_at, score) and its share of the total and facets; they are
// merged here, keyword scores made corpus-wide (bm25.ts), and documents loaded
// only for the page returned.

/** Candidates a keyword search reads from each index beyond twice the page (see bm25.ts). */
const RANK_MARGIN = 10;

export class FederatedSearch {
  constructor(
    private readonly pool: ReadPool,
    private readonly indexes: MonthlyIndexes,
    private readonly documents: FederatedDocuments,
  ) {}

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
    const months = this.indexes.monthsFor(query);
    if (lane === "light" && !cursorMode && !query.check && months.length > 0) {
      const browsed = await this.browsePage(months, args, query, startedMs);
      if (browsed) return browsed;
    }
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

    const docs = await this.documents.load(page, walk);
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

  /**
   * A browse page read whole on the light lane in one call (partition-browse.ts); undefined when that call failed
   * as a whole (its newest index could not be opened), so the caller reads the months one by one and records each.
   */
  private async browsePage(
    months: string[],
    args: QueryArgs,
    query: ArticleQuery,
    startedMs: number,
  ): Promise<SearchResult | undefined> {
    const answering = await this.pool.ready("light");
    const deadline = query.budgetMs === undefined ? undefined : Math.max(startedMs, answering) + query.budgetMs;
    let browsed: BrowsePage | typeof NOT_STARTED;
    try {
      browsed = await this.pool.run("light", {
        job: "browsePage",
        month: months[0] as string,
        args: { ...args, months, n: query.offset + query.limit, offset: query.offset, ...(deadline ? { deadline } : {}) },
      });
    } catch {
      return undefined;
    }
    if (browsed === NOT_STARTED) return undefined;
    const walk = walkOf(browsed.months, query.budgetMs);
    const hits: SearchHit[] = browsed.page.flatMap((hit) =>
      hit.doc === undefined ? [] : [{ article: JSON.parse(hit.doc) as ArticleDetail }],
    );
    const total = browsed.months.reduce((sum, m) => sum + ("total" in m ? m.total : 0), 0);
    return {
      hits,
      total,
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
      usage: usageOf(walk, undefined),
    };
  }

  /**
   * The ranking statistics of the monthly indexes a keyword search does not read: corpus-wide scores count every
   * index. One that cannot be read counts for nothing (the search's coverage is about the indexes it reads).
   */
  private async otherStats(read: readonly string[], phrases: string[], rankings: RankStats[]): Promise<void> {
    await walkPartitions(
      this.pool,
      this.indexes.months().filter((m) => !read.includes(m)),
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
}
