// BM25 with corpus-wide statistics, as FTS5 scores it (fts5_aux.c, bm25()):
//
//   score = sum over the query's phrases p of
//           idf(p) * f(p) * (k1 + 1) / (f(p) + k1 * (1 - b + b * D / avgdl))
//   idf(p) = max(1e-6, ln((N - n(p) + 0.5) / (n(p) + 0.5)))
//
// f(p) is the phrase's hits in the article weighted by column (title 10,
// entity names 1), D the article's length in tokens, N the articles, avgdl
// their mean length and n(p) the articles holding p.
//
// FTS5's bm25() takes N, avgdl and n(p) from its own table, i.e. one monthly
// index, so the same article scored differently in a small month than in a
// large one, and months could not be merged by score. OpenSearch's
// dfs_query_then_fetch answers this by summing the term statistics over every
// shard before scoring; so do we, over every monthly index (not only those the
// query reads, so an article's score does not depend on the window). FTS5
// cannot be handed other statistics, and better-sqlite3 cannot register an
// FTS5 auxiliary function to read f(p) and D directly, so each monthly index:
//
//   1. ranks its matches with FTS5's bm25() as before (it scores every match,
//      in C), keeping more than the page needs (RANK_MARGIN);
//   2. reads N and the total length from the FTS5 averages record, n(p) by
//      counting the phrase's matches (cached until the index changes), and D
//      of each candidate from the FTS5 docsize table;
//   3. recovers each candidate's f(p) from its local score, inverting the
//      formula above: from the whole query's score when it has one phrase, else
//      from a score of each phrase alone over the candidates.
//
// The merge then scores every candidate with the corpus-wide N, avgdl and n(p)
// (globalScore). The cost is one count per phrase per index while it is not
// cached, one docsize read per candidate, and for several phrases one pass
// over each phrase's matches. What it leaves approximate: an index's
// candidates are its best by local score, so an article just outside its
// index's margin whose corpus-wide score would reach the page is missed; the
// two orders differ only through idf weights between phrases and avgdl.

export const COLUMN_WEIGHTS = [10, 1] as const;
/** The relevance of an FTS5 match, higher is better: the SQL of step 1. */
export const FTS_SCORE = `-bm25(articles_fts, ${COLUMN_WEIGHTS.join(", ")})`;

const K1 = 1.2;
const B = 0.75;

/** One index's statistics, or (summed) the corpus's. */
export interface RankStats {
  /** Articles in the FTS index. */
  rows: number;
  /** Their total length in tokens. */
  tokens: number;
  /** Per scored phrase: articles holding it. */
  hits: number[];
}

/** What scoring one candidate needs. */
export interface RankFeatures {
  /** Length in tokens. */
  length: number;
  /** Per scored phrase: hits weighted by column. */
  freq: number[];
}

export function idf(rows: number, hits: number): number {
  const value = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return value > 0 ? value : 1e-6;
}

function lengthNorm(length: number, stats: RankStats): number {
  const avgdl = stats.rows > 0 ? stats.tokens / stats.rows : 1;
  return K1 * (1 - B + (B * length) / avgdl);
}

/**
 * The weighted frequency behind a score `score` of phrase `phrase` alone, scored with `stats`: hits times whole
 * column weights, so a whole number, rounded to one (articles scoring alike then tie exactly, whichever way their
 * score was recovered, and take the merge's tie-break).
 */
export function frequencyOf(score: number, phrase: number, length: number, stats: RankStats): number {
  const weight = idf(stats.rows, stats.hits[phrase] ?? 0) * (K1 + 1);
  if (score <= 0 || score >= weight) return 0;
  return Math.round((score * lengthNorm(length, stats)) / (weight - score));
}

/** BM25 of a candidate with the given (corpus-wide) statistics. */
export function bm25(features: RankFeatures, stats: RankStats): number {
  const norm = lengthNorm(features.length, stats);
  let score = 0;
  features.freq.forEach((f, i) => {
    if (f > 0) score += (idf(stats.rows, stats.hits[i] ?? 0) * f * (K1 + 1)) / (f + norm);
  });
  return score;
}

/** The statistics of several indexes together. */
export function sumStats(parts: readonly RankStats[], phrases: number): RankStats {
  const total: RankStats = { rows: 0, tokens: 0, hits: new Array<number>(phrases).fill(0) };
  for (const part of parts) {
    total.rows += part.rows;
    total.tokens += part.tokens;
    part.hits.forEach((h, i) => (total.hits[i] = (total.hits[i] ?? 0) + h));
  }
  return total;
}
