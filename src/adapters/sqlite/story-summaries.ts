import { FILTER_FIELDS, foldValue } from "../../domain/filter-fields.js";
import type { ArticlePartition } from "./article-partition.js";

// Story sizes in one monthly index, read from the tables StoryTally keeps
// (partition-schema.ts): one row per story, never one per member.

/** A story in one monthly index: its members here, their distinct publishers, its newest member's published_at. */
export interface StorySummaryRow {
  story: string;
  count: number;
  outlets: number;
  newest: string;
}

/** The story id as spelled when first written. */
const STORY = "coalesce(nullif(t.value, ''), t.key)";

/**
 * The listed stories' rows (CROSS JOIN keeps the id list outermost: left to
 * itself the planner walks every story term and probes the list for each), or
 * every story's when `storyIds` is undefined.
 */
export function storySummaries(partition: ArticlePartition, storyIds: readonly string[] | undefined): StorySummaryRow[] {
  const statements = partition.statements;
  const code = FILTER_FIELDS.story_id.code;
  const columns = `${STORY} AS story, t.docs AS count, s.outlets, s.newest`;
  if (storyIds === undefined) {
    return statements
      .get(`SELECT ${columns} FROM terms t JOIN stories s ON s.story = t.id WHERE t.field = ? AND t.docs > 0`)
      .all(code) as StorySummaryRow[];
  }
  return statements
    .get(
      `SELECT ${columns} FROM json_each(?) j CROSS JOIN terms t ON t.field = ? AND t.key = j.value
       JOIN stories s ON s.story = t.id WHERE t.docs > 0`,
    )
    .all(storyKeys(storyIds), code) as StorySummaryRow[];
}

/** The distinct publishers (folded) of each listed story here. */
export function storySourceKeys(
  partition: ArticlePartition,
  storyIds: readonly string[],
): Array<{ story: string; source: string }> {
  return partition.statements
    .get(
      `SELECT ${STORY} AS story, st.key AS source
       FROM json_each(?) j CROSS JOIN terms t ON t.field = ? AND t.key = j.value
       JOIN story_sources ss ON ss.story = t.id JOIN terms st ON st.id = ss.source`,
    )
    .all(storyKeys(storyIds), FILTER_FIELDS.story_id.code) as Array<{ story: string; source: string }>;
}

function storyKeys(storyIds: readonly string[]): string {
  return JSON.stringify([...new Set(storyIds.map(foldValue))]);
}
