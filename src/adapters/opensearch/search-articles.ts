import type { ArticleDetail } from "../../domain/article.js";
import { TIE_GROUP_LIMIT, type CursorPosition } from "../../domain/browse-cursor.js";
import { CANDIDATE_LIMIT, type ArticleQuery } from "../../domain/search-query.js";
import type { CursorOutcome, SearchHit, SearchResult } from "../../ports/article-search.js";
import { parseStamp, toStamp } from "../../shared/timestamps.js";
import { facetAggregations, readFacets } from "./facet-aggregations.js";
import { articleQuery } from "./query-dsl.js";
import type { MonthReader } from "./month-reader.js";
import type { SearchBody, SearchHitBody } from "./search-request.js";

// /search over the monthly indices in one request: ranked by the keyword
// query's score, or newest first (published_at, then id, both descending, the
// order the indices are sorted in on disk). Totals are exact
// (`track_total_hits`), facets are terms aggregations over the same matches,
// and a keyword search scores with term statistics summed over every index
// asked (`dfs_query_then_fetch`), so scores compare across months.
//
// Cursor pages seek with `search_after` on (published_at, id): pages are
// disjoint however many articles share a timestamp, and a timestamp serves at
// most its first TIE_GROUP_LIMIT articles (by id, descending); the rest of it
// is skipped and the page that skips it says so (`tieGroupCut`), as in the
// embedded index (spec section 4, Pagination rule 3).

type Sort = NonNullable<SearchBody["sort"]>;
const NEWEST_FIRST: Sort = [{ "indexed.stamp": "desc" }, { id: "desc" }];
const RANKED: Sort = [{ _score: "desc" }, ...NEWEST_FIRST];
/** `_source` without what only the index needs: the article as written. */
const ARTICLE_SOURCE = { excludes: ["indexed"] };

/**
 * Only the fields the caller reads: the whole article is about three times the JSON of the fields /search shows,
 * and parsing the node's answer was the largest share of the API's CPU per keyword call.
 */
function sourceOf(query: ArticleQuery): NonNullable<SearchBody["_source"]> {
  return query.fields ? { includes: [...query.fields] } : ARTICLE_SOURCE;
}

export async function searchArticles(reader: MonthReader, query: ArticleQuery): Promise<SearchResult> {
  const body: SearchBody = {
    query: articleQuery(query.keywords, query.filters, query.check),
    sort: query.keywords ? RANKED : NEWEST_FIRST,
    track_total_hits: true,
    _source: sourceOf(query),
    ...(query.facets ? { aggs: facetAggregations(query.facets) } : {}),
  };
  const ranked = query.keywords !== undefined;
  if (!query.cursor) {
    const read = await reader.read<ArticleDetail>(
      query.filters,
      { ...body, from: query.offset, size: query.limit },
      {
        dfs: ranked,
        budgetMs: query.budgetMs,
      },
    );
    return {
      hits: read.response?.hits.hits.map((h) => toHit(h, ranked)) ?? [],
      total: read.response?.hits.total?.value ?? 0,
      partitionsRead: read.coverage.partitionsRead,
      partitionsFailed: read.coverage.partitionsFailed,
      ...(query.facets ? { facets: readFacets(query.facets, read.response?.aggregations) } : {}),
      ...(query.check ? checked(read.response?.hits.total?.value ?? 0) : {}),
      usage: { indexQueries: 1, candidatesExamined: query.check ? examined(read.response?.hits.total?.value ?? 0) : 0 },
    };
  }

  // A cursor page: one more than the page, to know whether another follows.
  const wanted = query.limit + 1;
  const after = query.cursor.after;
  const page: Array<{ hit: SearchHitBody<ArticleDetail>; stamp: string; served: number }> = [];
  let stamp = after?.published_at;
  let served = after?.served ?? 0;
  let tieGroupCut = false;
  let skippedAfterPage = false;
  let seek: Array<string | number> | undefined = after ? [epochMs(after.published_at), after.id] : undefined;
  let first: Awaited<ReturnType<typeof reader.read<ArticleDetail>>> | undefined;
  let queries = 0;
  for (;;) {
    const read = await reader.read<ArticleDetail>(
      query.filters,
      // Facets and the total once, with the first read; a skip past a tie group reads hits only.
      first
        ? { query: body.query, sort: NEWEST_FIRST, _source: body._source, size: wanted - page.length, track_total_hits: false }
        : { ...body, size: wanted },
      { budgetMs: query.budgetMs, ...(seek ? { searchAfter: seek } : {}) },
    );
    queries++;
    first ??= read;
    if (!read.response) break;
    let skipBefore: string | undefined;
    for (const hit of read.response.hits.hits) {
      const hitStamp = stampOfSort(hit);
      if (hitStamp !== stamp) {
        stamp = hitStamp;
        served = 0;
      }
      if (served >= TIE_GROUP_LIMIT) {
        // Only a skip among the articles this page returns makes this page partial.
        if (page.length < query.limit) tieGroupCut = true;
        else skippedAfterPage = true;
        skipBefore = hitStamp;
        break;
      }
      served++;
      page.push({ hit, stamp: hitStamp, served });
      if (page.length === wanted) break;
    }
    if (page.length === wanted || skipBefore === undefined) break;
    // On past the rest of the tie group: after (its timestamp, ""), since no id sorts below "" in descending order.
    seek = [epochMs(skipBefore), ""];
  }
  const results = page.slice(0, query.limit);
  const last = results[results.length - 1];
  const next: CursorPosition | null =
    page.length > query.limit && last ? { published_at: last.stamp, id: last.hit._id, served: last.served } : null;
  // A skip right after a full page belongs to the next page, or, when none follows, to this one.
  if (skippedAfterPage && next === null) tieGroupCut = true;
  const cursor: CursorOutcome = { next, tieGroupCut };
  const total = first?.response?.hits.total?.value ?? 0;
  return {
    hits: results.map((p) => toHit(p.hit, false)),
    total,
    partitionsRead: first?.coverage.partitionsRead ?? [],
    partitionsFailed: first?.coverage.partitionsFailed ?? [],
    ...(query.facets ? { facets: readFacets(query.facets, first?.response?.aggregations) } : {}),
    cursor,
    usage: { indexQueries: queries, candidatesExamined: 0 },
  };
}

function toHit(hit: SearchHitBody<ArticleDetail>, ranked: boolean): SearchHit {
  const article = hit._source as ArticleDetail;
  return ranked && hit._score !== null ? { article, score: hit._score } : { article };
}

/**
 * The node matches geographic and amount filters through the index, over every candidate: nothing is left
 * unchecked, so totals stay exact and paging runs to the last match.
 */
function checked(total: number): Pick<SearchResult, "candidates"> {
  return { candidates: { approximate: false, passed: total } };
}

/** What the filter is charged for (spec section 8): the candidates it stood for, as far as the spec counts them. */
function examined(total: number): number {
  return Math.max(1, Math.min(total, CANDIDATE_LIMIT));
}

function stampOfSort(hit: SearchHitBody<unknown>): string {
  const millis = hit.sort?.[0];
  if (typeof millis !== "number") throw new Error(`a browse hit without its sort values: ${hit._id}`);
  return toStamp(millis);
}

function epochMs(stamp: string): number {
  const ms = parseStamp(stamp);
  if (ms === undefined) throw new Error(`not a 14-digit timestamp: ${stamp}`);
  return ms;
}
