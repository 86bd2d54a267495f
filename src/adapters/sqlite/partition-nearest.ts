import { FILTER_FIELDS, foldValue } from "../../domain/filter-fields.js";
import type { ArticlePartition } from "./article-partition.js";
import {
  and,
  conditions,
  driverCondition,
  driverPostings,
  matchesWholeIndex,
  matchSet,
  type Params,
  type PartitionSearch,
} from "./match-conditions.js";
import { annView, type AnnView } from "./partition-ann.js";
import { candidates } from "./partition-search.js";
import { decodeTerms, termOfField } from "./term-blob.js";
import { storyOfArticleId } from "./story-of-rows.js";
import { hasVectorTable, lastEmbedded, toVector, vectorModel } from "./partition-vectors.js";

// The articles of one monthly index nearest a query vector, among those that
// pass the filters. Two ways, chosen per index and query (measured: see
// bench/RESULTS.md, "Semantic ranking: the vector engine"):
//
//   graph  when the filters can match at least ANN_MIN_MATCHES articles here
//          and the index's HNSW graph is written (partition-ann.ts): its
//          nearest neighbours, each checked against every filter exactly
//   exact  otherwise (selective filters, or no graph yet): cosine (vectors are
//          unit length: a dot product) over the newest VECTOR_SCAN_LIMIT
//          filter matches, the filters applied before ranking

/** Filter matches scored per monthly index by the exact scan, newest first. */
export const VECTOR_SCAN_LIMIT = 100_000;
/** Below this many possible filter matches in an index, the exact scan answers (it is fast there, and exact). */
export const ANN_MIN_MATCHES = 20_000;

export interface NearestHit {
  id: string;
  published_at: string;
  story_id: string | null;
  rowid: number;
  score: number;
}

export interface NearestPart {
  hits: NearestHit[];
  /** Articles scored. */
  scored: number;
  /** Filter matches (within the scan) not embedded yet with the model: the answer does not cover them. */
  unembedded: number;
}

/** The `k` nearest of the filter matches (`search` null: nothing here can match). */
export function nearest(
  partition: ArticlePartition,
  search: PartitionSearch | null,
  query: Float32Array,
  model: string,
  k: number,
  excludeStory?: string,
  annMinMatches: number = ANN_MIN_MATCHES,
): NearestPart {
  if (search === null) return { hits: [], scored: 0, unembedded: 0 };
  if (!hasVectorTable(partition) || vectorModel(partition) !== model) {
    return {
      hits: [],
      scored: 0,
      unembedded: matchesWholeIndex(search) ? partition.count() : countUpTo(partition, search),
    };
  }
  const skip = excludeStory === undefined ? undefined : storyMembers(partition, excludeStory);
  const graph = annView(partition.path, model, query.length);
  if (graph !== undefined && estimatedMatches(partition, search) >= annMinMatches) {
    const top = nearestByGraph(partition, search, graph, query, k, skip);
    if (top !== undefined) return { hits: describe(partition, top.hits), scored: top.scored, unembedded: top.unembedded };
  }
  let rows: Array<{ rowid: number; embedding: Buffer | null }>;
  if (matchesWholeIndex(search)) {
    rows = partition.statements
      .get("SELECT rowid, embedding FROM article_vectors WHERE embedding IS NOT NULL ORDER BY rowid DESC LIMIT ?")
      .all(VECTOR_SCAN_LIMIT) as typeof rows;
  } else if (estimatedMatches(partition, search) <= VECTOR_SCAN_LIMIT) {
    // Every match: read in rowid order (the postings' order), so the vectors are read in the table's order.
    const params: Params = {};
    rows = partition.statements
      .get(
        `SELECT v.rowid, v.embedding FROM (${matchingSql(search, params)}) m
         JOIN article_vectors v ON v.rowid = m.rowid WHERE v.embedding IS NOT NULL`,
      )
      .all(params) as typeof rows;
  } else {
    const matched = candidates(partition, search, VECTOR_SCAN_LIMIT)
      .map((c) => c.rowid)
      .sort((a, b) => a - b);
    rows = partition.statements
      .get(
        "SELECT v.rowid, v.embedding FROM json_each(?) j JOIN article_vectors v ON v.rowid = j.value WHERE v.embedding IS NOT NULL",
      )
      .all(JSON.stringify(matched)) as typeof rows;
  }
  const unembedded = unembeddedMatches(partition, search);
  const top = topK(rows, query, k, skip);
  return { hits: describe(partition, top), scored: rows.length, unembedded };
}

/**
 * The graph's answer (partition-ann.ts), every filter checked exactly on what
 * it returns: it is asked for more neighbours than `k` in proportion to the
 * share of the index the filters can match, and four times more once if too
 * few pass. Undefined when still too few pass while the graph had more to
 * give: the caller then scans the matches exactly. Vectors stored after the
 * graph file was written are scanned exactly and merged in.
 */
function nearestByGraph(
  partition: ArticlePartition,
  search: PartitionSearch,
  graph: AnnView,
  query: Float32Array,
  k: number,
  skip: ReadonlySet<number> | undefined,
): { hits: Array<{ rowid: number; score: number }>; scored: number; unembedded: number } | undefined {
  const whole = matchesWholeIndex(search);
  const articles = Math.max(1, partition.count());
  const share = whole ? 1 : Math.max(0.01, Math.min(1, estimatedMatches(partition, search) / articles));
  // The skipped articles (the seed's story) are left out inside the graph's search and not counted: a story of
  // thousands of copies would otherwise widen every search by as many.
  const covered = graph.meta.articles;
  let fetch = Math.min(covered, Math.ceil(whole ? k : (k / share) * 1.2));
  let passed: Array<{ rowid: number; score: number }> = [];
  let scored = 0;
  for (let attempt = 0; ; attempt++) {
    const found = graph.search(query, fetch, skip);
    scored = found.length;
    const keep = whole
      ? undefined
      : matchingRowids(
          partition,
          search,
          found.map((f) => f.rowid),
        );
    passed = keep === undefined ? found : found.filter((f) => keep.has(f.rowid));
    if (passed.length >= k || found.length < fetch || fetch >= covered) break;
    if (attempt === 1) return undefined;
    fetch = Math.min(covered, fetch * 4);
  }
  // Stored after the file was written: an exact scan of those (few) vectors.
  let tail = partition.statements
    .get("SELECT rowid, embedding FROM article_vectors WHERE rowid > ? AND embedding IS NOT NULL")
    .all(graph.meta.upTo) as Array<{ rowid: number; embedding: Buffer | null }>;
  if (!whole && tail.length > 0) {
    const keep = matchingRowids(
      partition,
      search,
      tail.map((t) => t.rowid),
    );
    tail = tail.filter((t) => keep.has(t.rowid));
  }
  const seen = new Set(passed.map((p) => p.rowid));
  const merged = [...passed, ...topK(tail, query, k, skip).filter((t) => !seen.has(t.rowid))];
  merged.sort(byScoreDesc);
  return { hits: merged.slice(0, k), scored: scored + tail.length, unembedded: unembeddedMatches(partition, search) };
}

/** Upper bound on the filter matches here: the rarest filter term's articles, else the whole index. */
function estimatedMatches(partition: ArticlePartition, search: PartitionSearch): number {
  const articles = partition.count();
  const rarest = search.terms[0];
  return rarest === undefined ? articles : Math.min(articles, rarest.docs);
}

/** SQL reading the rowid of every match, in rowid order; from the postings alone when no condition needs the row. */
function matchingSql(search: PartitionSearch, params: Params): string {
  if (search.terms.length > 0 && search.from === undefined && search.to === undefined) {
    const where = conditions(search, params, { driver: 0, postingsOnly: true });
    return `SELECT d.article AS rowid FROM ${driverPostings(search)} WHERE ${driverCondition(search)}${and(where)}`;
  }
  return matchSet(search, params, "a.rowid AS rowid");
}

/** Which of `rowids` pass every filter of the query (the same SQL conditions as a browse). */
function matchingRowids(partition: ArticlePartition, search: PartitionSearch, rowids: readonly number[]): Set<number> {
  if (rowids.length === 0) return new Set();
  const params: Params = { ids: JSON.stringify(rowids) };
  const where = conditions(search, params);
  return new Set(
    partition.statements
      .get(`SELECT a.rowid FROM json_each(@ids) j JOIN articles a ON a.rowid = j.value${and(where)}`)
      .pluck()
      .all(params) as number[],
  );
}

/** Filter matches not embedded yet (stored after the last vector). */
function unembeddedMatches(partition: ArticlePartition, search: PartitionSearch): number {
  const params: Params = { last: lastEmbedded(partition) };
  const where = ["a.rowid > @last", ...conditions(search, params)];
  return partition.statements
    .get(`SELECT count(*) FROM articles a WHERE ${where.join(" AND ")}`)
    .pluck()
    .get(params) as number;
}

/**
 * The ranked rowids with the fields the merge across indexes needs. The story comes from the article's doc values
 * (its story_id term, as story listings read it), not its JSON document: several times cheaper for 1,000 rows.
 */
function describe(partition: ArticlePartition, top: ReadonlyArray<{ rowid: number; score: number }>): NearestHit[] {
  if (top.length === 0) return [];
  const found = partition.statements
    .get("SELECT a.rowid, a.id, a.published_at, a.terms FROM json_each(?) j JOIN articles a ON a.rowid = j.value")
    .all(JSON.stringify(top.map((t) => t.rowid))) as Array<{ rowid: number; id: string; published_at: string; terms: Buffer }>;
  const code = FILTER_FIELDS.story_id.code;
  const storyTerm = new Map(found.map((f) => [f.rowid, termOfField(decodeTerms(f.terms), code)]));
  const spelled = partition.spellings([...new Set([...storyTerm.values()].filter((t) => t !== undefined))]);
  const byRowid = new Map(found.map((f) => [f.rowid, f]));
  return top.flatMap((t) => {
    const row = byRowid.get(t.rowid);
    if (!row) return [];
    const term = storyTerm.get(t.rowid);
    const spelling = term === undefined ? undefined : spelled.get(term);
    const story_id = spelling === undefined ? null : spelling.value || spelling.key;
    return [{ rowid: row.rowid, id: row.id, published_at: row.published_at, story_id, score: t.score }];
  });
}

/** The stored vector of an article (undefined: absent, or not embedded with `model`). */
export function vectorOfArticle(partition: ArticlePartition, id: string, model: string): VectorOfArticle {
  const found = storyOfArticleId(partition, id);
  if (found === undefined) return { status: "absent" };
  const article = { rowid: found.rowid, story_id: found.story };
  // The model alone: vectorStatus would count the month's embedded articles, a scan on every /similar.
  if (!hasVectorTable(partition) || vectorModel(partition) !== model) return { status: "unembedded", story_id: article.story_id };
  const blob = partition.statements.get("SELECT embedding FROM article_vectors WHERE rowid = ?").pluck().get(article.rowid) as
    Buffer | null | undefined;
  if (blob === undefined) return { status: "unembedded", story_id: article.story_id };
  return { status: "found", story_id: article.story_id, vector: blob === null ? null : toVector(blob) };
}

export type VectorOfArticle =
  | { status: "absent" }
  | { status: "unembedded"; story_id: string | null }
  /** `vector` null: the article has no text to embed. */
  | { status: "found"; story_id: string | null; vector: Float32Array | null };

/** Rowids of a story's members here (its story_id term's postings). */
function storyMembers(partition: ArticlePartition, storyId: string): Set<number> {
  const term = partition.termId(FILTER_FIELDS.story_id.code, foldValue(storyId));
  if (term === undefined) return new Set();
  return new Set(partition.statements.get("SELECT article FROM postings WHERE term = ?").pluck().all(term) as number[]);
}

function countUpTo(partition: ArticlePartition, search: PartitionSearch): number {
  return candidates(partition, search, VECTOR_SCAN_LIMIT).length;
}

/** The k best dot products, best first (ties: newer rowid first, as keyword ranking breaks them). */
function topK(
  rows: ReadonlyArray<{ rowid: number; embedding: Buffer | null }>,
  query: Float32Array,
  k: number,
  skip?: ReadonlySet<number>,
): Array<{ rowid: number; score: number }> {
  const best: Array<{ rowid: number; score: number }> = [];
  let floor = -Infinity;
  for (const row of rows) {
    if (row.embedding === null || skip?.has(row.rowid)) continue;
    const score = dot(row.embedding, query);
    if (best.length >= k && score <= floor) continue;
    best.push({ rowid: row.rowid, score });
    if (best.length > k * 2) {
      best.sort(byScoreDesc);
      best.length = k;
      floor = (best[k - 1] as { score: number }).score;
    }
  }
  best.sort(byScoreDesc);
  return best.slice(0, k);
}

/** A stored vector's dot product with the query (cosine: both are unit length). */
function dot(blob: Buffer, query: Float32Array): number {
  const v = toVector(blob);
  let score = 0;
  for (let d = 0; d < query.length; d++) score += (v[d] as number) * (query[d] as number);
  return score;
}

function byScoreDesc(a: { rowid: number; score: number }, b: { rowid: number; score: number }): number {
  return b.score - a.score || b.rowid - a.rowid;
}
