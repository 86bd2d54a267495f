import { FILTER_FIELDS } from "../../domain/filter-fields.js";
import type { ArticlePartition } from "./article-partition.js";
import { decodeTerms, termOfField } from "./term-blob.js";

// The story an article is in now, read from its doc values (its story_id term) rather than its stored document:
// a row and a term instead of inflating and parsing the whole article.

/** The story of each article row, by rowid (null: in none); rows not in the index are left out. */
export function storiesOfRows(partition: ArticlePartition, rowids: readonly number[]): Map<number, string | null> {
  if (rowids.length === 0) return new Map();
  const rows = partition.statements
    .get("SELECT j.value AS rowid, a.terms FROM json_each(?) j JOIN articles a ON a.rowid = j.value")
    .all(JSON.stringify(rowids)) as Array<{ rowid: number; terms: Buffer }>;
  const terms = new Map<number, number | undefined>();
  for (const row of rows) terms.set(row.rowid, termOfField(decodeTerms(row.terms), FILTER_FIELDS.story_id.code));
  const spellings = partition.spellings([...new Set([...terms.values()].filter((id) => id !== undefined))]);
  const stories = new Map<number, string | null>();
  for (const [rowid, id] of terms) {
    const spelling = id === undefined ? undefined : spellings.get(id);
    stories.set(rowid, spelling === undefined ? null : spelling.value || spelling.key);
  }
  return stories;
}

/** An article's row and story (null: in none); undefined when it is not in the index. */
export function storyOfArticleId(partition: ArticlePartition, id: string): { rowid: number; story: string | null } | undefined {
  const rowid = partition.statements.get("SELECT rowid FROM articles WHERE id = ?").pluck().get(id) as number | undefined;
  if (rowid === undefined) return undefined;
  return { rowid, story: storiesOfRows(partition, [rowid]).get(rowid) ?? null };
}
