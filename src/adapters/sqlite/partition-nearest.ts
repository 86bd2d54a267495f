import { FILTER_FIELDS, foldValue } from "../../domain/filter-fields.js";
import type { ArticlePartition } from "./article-partition.js";
import { matchesWholeIndex, type PartitionSearch } from "./match-conditions.js";
import { candidates } from "./partition-search.js";
import { hasVectorTable, lastEmbedded, toVector, vectorStatus } from "./partition-vectors.js";

// The articles of one monthly index nearest a query vector, among those that
// pass the filters. Exact cosine (vectors are unit length: a dot product)
// over the newest VECTOR_SCAN_LIMIT filter matches: the bounded candidate set
// of semantic ranking. Chosen over sqlite-vec and HNSW by measurement (see
// bench/RESULTS.md, "Semantic ranking"): filters apply exactly, before ranking.

/** Filter matches scored per monthly index, newest first. */
export const VECTOR_SCAN_LIMIT = 100_000;

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
): NearestPart {
  if (search === null) return { hits: [], scored: 0, unembedded: 0 };
  const status = vectorStatus(partition);
  if (status.model !== model || !hasVectorTable(partition)) {
    return { hits: [], scored: 0, unembedded: matchesWholeIndex(search) ? status.articles : countUpTo(partition, search) };
  }
  let rows: Array<{ rowid: number; embedding: Buffer | null }>;
  let unembedded: number;
  if (matchesWholeIndex(search)) {
    rows = partition.statements
      .get("SELECT rowid, embedding FROM article_vectors WHERE embedding IS NOT NULL ORDER BY rowid DESC LIMIT ?")
      .all(VECTOR_SCAN_LIMIT) as typeof rows;
    unembedded = status.articles - status.embedded;
  } else {
    const matched = candidates(partition, search, VECTOR_SCAN_LIMIT).map((c) => c.rowid);
    const last = lastEmbedded(partition);
    unembedded = matched.reduce((n, rowid) => (rowid > last ? n + 1 : n), 0);
    rows = partition.statements
      .get(
        "SELECT v.rowid, v.embedding FROM json_each(?) j JOIN article_vectors v ON v.rowid = j.value WHERE v.embedding IS NOT NULL",
      )
      .all(JSON.stringify(matched)) as typeof rows;
  }
  const top = topK(rows, query, k, excludeStory === undefined ? undefined : storyMembers(partition, excludeStory));
  if (top.length === 0) return { hits: [], scored: rows.length, unembedded };
  const found = partition.statements
    .get(
      `SELECT a.rowid, a.id, a.published_at, json_extract(d.doc, '$.story_id') AS story_id
       FROM json_each(?) j JOIN articles a ON a.rowid = j.value JOIN docs d ON d.rowid = a.rowid`,
    )
    .all(JSON.stringify(top.map((t) => t.rowid))) as Array<Omit<NearestHit, "score">>;
  const byRowid = new Map(found.map((f) => [f.rowid, f]));
  const hits = top.flatMap((t) => {
    const row = byRowid.get(t.rowid);
    return row ? [{ ...row, score: t.score }] : [];
  });
  return { hits, scored: rows.length, unembedded };
}

/** The stored vector of an article (undefined: absent, or not embedded with `model`). */
export function vectorOfArticle(partition: ArticlePartition, id: string, model: string): VectorOfArticle {
  const article = partition.statements
    .get("SELECT a.rowid, json_extract(d.doc, '$.story_id') AS story_id FROM articles a JOIN docs d ON d.rowid = a.rowid WHERE a.id = ?")
    .get(id) as { rowid: number; story_id: string | null } | undefined;
  if (article === undefined) return { status: "absent" };
  if (!hasVectorTable(partition) || vectorStatus(partition).model !== model) return { status: "unembedded", story_id: article.story_id };
  const blob = partition.statements.get("SELECT embedding FROM article_vectors WHERE rowid = ?").pluck().get(article.rowid) as
    | Buffer
    | null
    | undefined;
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
  const dim = query.length;
  const best: Array<{ rowid: number; score: number }> = [];
  let floor = -Infinity;
  for (const row of rows) {
    if (row.embedding === null || skip?.has(row.rowid)) continue;
    const blob = row.embedding;
    const v = blob.byteOffset % 4 === 0 ? new Float32Array(blob.buffer, blob.byteOffset, dim) : toVector(blob);
    let score = 0;
    for (let d = 0; d < dim; d++) score += (v[d] as number) * (query[d] as number);
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

function byScoreDesc(a: { rowid: number; score: number }, b: { rowid: number; score: number }): number {
  return b.score - a.score || b.rowid - a.rowid;
}
