import type { ArticlePartition } from "./article-partition.js";
import { FTS_SCORE, frequencyOf, type RankFeatures, type RankStats } from "./bm25.js";
import type { PartitionHit } from "./partition-search.js";

// What one monthly index gives corpus-wide BM25 (bm25.ts): its statistics for
// the query's phrases, and each ranked candidate's length and phrase
// frequencies, read from FTS5's own tables.

/** N, total length and each phrase's article count in this index; kept until the index changes. */
export function rankStats(partition: ArticlePartition, phrases: readonly string[]): RankStats {
  const [rows, ...columns] = partition.cached("fts-averages", () => {
    const block = partition.statements.get("SELECT block FROM articles_fts_data WHERE id = 1").pluck().get() as
      Buffer | undefined;
    return block === undefined ? [0] : varints(block);
  });
  const count = partition.statements.get("SELECT count(*) FROM articles_fts WHERE articles_fts MATCH ?").pluck();
  return {
    rows: rows ?? 0,
    tokens: columns.reduce((sum, n) => sum + n, 0),
    hits: phrases.map((phrase) => partition.cached(`fts-hits ${phrase}`, () => count.get(phrase) as number)),
  };
}

/**
 * Length and phrase frequencies of each candidate, recovered from the scores this index gave (bm25.ts, step 3).
 * `match` is the query's FTS5 expression, whose score is the sum of its phrases' scores alone.
 */
export function rankFeatures(
  partition: ArticlePartition,
  hits: readonly PartitionHit[],
  phrases: readonly string[],
  stats: RankStats,
  match: string,
): RankFeatures[] {
  if (hits.length === 0) return [];
  const rowids = JSON.stringify(hits.map((h) => h.rowid));
  const sizes = partition.statements
    .get("SELECT d.id, d.sz FROM json_each(?) j JOIN articles_fts_docsize d ON d.id = j.value")
    .raw()
    .all(rowids) as Array<[number, Buffer]>;
  const lengths = new Map(sizes.map(([id, sz]) => [id, varints(sz).reduce((sum, n) => sum + n, 0)]));
  const whole = new Map(hits.map((h) => [h.rowid, h.score ?? 0]));
  // Each phrase's score alone is read by a pass over its matches, but for the one with the most matches when it
  // occurs once in the query: its score is what the others leave of the whole query's.
  const derived = phrases.length > 1 ? mostMatched(phrases, stats, match) : 0;
  const alone: Array<Map<number, number> | undefined> =
    phrases.length === 1
      ? [whole]
      : phrases.map((phrase, i) => {
          if (i === derived) return undefined;
          const rows = partition.statements
            .get(
              // `+rowid`: the candidates filter the phrase's matches; as a constraint FTS5 would run the phrase once per rowid.
              `SELECT rowid, ${FTS_SCORE} FROM articles_fts WHERE articles_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
            )
            .raw()
            .all(phrase, rowids) as Array<[number, number]>;
          return new Map(rows);
        });
  return hits.map((hit) => {
    const length = lengths.get(hit.rowid) ?? 0;
    const scores = alone.map((byRowid) => byRowid?.get(hit.rowid) ?? 0);
    if (derived >= 0 && phrases.length > 1) {
      scores[derived] = (whole.get(hit.rowid) ?? 0) - scores.reduce((sum, score) => sum + score, 0);
    }
    return { length, freq: scores.map((score, i) => frequencyOf(score, i, length, stats)) };
  });
}

/** The phrase with the most matches here, when it occurs once in `match` (else -1: every phrase gets a pass). */
function mostMatched(phrases: readonly string[], stats: RankStats, match: string): number {
  let most = -1;
  phrases.forEach((phrase, i) => {
    if (most < 0 || (stats.hits[i] ?? 0) > (stats.hits[most] ?? 0)) most = i;
  });
  const phrase = phrases[most] as string;
  return match.split(phrase).length === 2 ? most : -1;
}

/** The SQLite varints (big-endian, 7 bits a byte, the ninth byte whole) FTS5 writes its records with. */
function varints(blob: Uint8Array): number[] {
  const out: number[] = [];
  let at = 0;
  while (at < blob.length) {
    let value = 0;
    for (let i = 0; at < blob.length; i++) {
      const byte = blob[at++] as number;
      if (i === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    out.push(value);
  }
  return out;
}
