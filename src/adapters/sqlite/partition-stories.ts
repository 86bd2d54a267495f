import { FILTER_FIELDS, foldValue } from "../../domain/filter-fields.js";
import { bySize, type SizedStory, type SizeOrder } from "../../domain/stories/story-order.js";
import { monthOf } from "../../shared/timestamps.js";
import type { ArticlePartition } from "./article-partition.js";
import { FTS_SCORE } from "./bm25.js";
import { matchesWholeIndex, matchSet, type Params, type PartitionSearch } from "./match-conditions.js";
import { ScanBudget } from "./scan-budget.js";
import { storySummaries } from "./story-summaries.js";
import { storiesOfRows, storyOfArticleId } from "./story-of-rows.js";
import { decodeTerms, termOfField } from "./term-blob.js";

// Story queries in one monthly index: the stories a search matches, the
// publishers of given stories' members, an article's story (a story's sizes
// and overview: story-summaries.ts, story-overview.ts).
// A story lives here as the story_id term: its postings are its members.

/** A story's matches in one index: the newest matching published_at, and the best score on a keyword search. */
export interface StoryMatchRow {
  newest: string;
  score?: number;
}

/**
 * Every story with a match in this index, by story id: the newest matching
 * published_at and, on a keyword search, the best member's score. The story
 * is read from each match's doc values, so no document is parsed.
 */
export function storyMatches(
  partition: ArticlePartition,
  search: PartitionSearch,
  budget = new ScanBudget(),
): Map<string, StoryMatchRow> {
  // Every article matches: each story's newest member is kept with its size, so no article is read.
  if (matchesWholeIndex(search)) return new Map(storySummaries(partition, undefined).map((s) => [s.story, { newest: s.newest }]));
  return readStoryMatches(partition, search, undefined, budget);
}

/**
 * The `n` stories whose newest member is newest, on a browse of the whole
 * index, and the id of every story in it: the matches are read newest first
 * and only until `n` stories are met, and the ids come from the story terms
 * (those with members), so a month is not read article by article.
 * Undefined when the search does not cover the whole index unfiltered.
 */
export function newestStories(
  partition: ArticlePartition,
  search: PartitionSearch,
  n: number,
  budget = new ScanBudget(),
): { newest: Map<string, StoryMatchRow>; all: string[] } | undefined {
  if (!matchesWholeIndex(search)) return undefined;
  const all = partition.statements
    .get("SELECT coalesce(nullif(value, ''), key) FROM terms WHERE field = ? AND docs > 0")
    .pluck()
    .all(FILTER_FIELDS.story_id.code) as string[];
  return { newest: readStoryMatches(partition, search, n, budget), all };
}

/**
 * Stories of the matches, by story id; with `newestN`, read newest first and only until that many are met; only
 * those of the matches read before the budget ran out.
 */
function readStoryMatches(
  partition: ArticlePartition,
  search: PartitionSearch,
  newestN: number | undefined,
  budget: ScanBudget,
): Map<string, StoryMatchRow> {
  const params: Params = {};
  const columns = search.match === undefined ? "a.terms, a.published_at" : `a.terms, a.published_at, ${FTS_SCORE} AS score`;
  const code = FILTER_FIELDS.story_id.code;
  const byTerm = new Map<number, StoryMatchRow>();
  const order = newestN === undefined ? "" : " ORDER BY a.published_at DESC, a.id DESC";
  // Streamed as arrays: a browse over a whole month reads every article once.
  const rows = partition.statements
    .get(matchSet(search, params, columns) + order)
    .raw()
    .iterate(params) as Iterable<[Buffer, string, number?]>;
  // With `newestN`: the published_at at which the n-th story was met. Stories tied with it are read too, so the
  // caller's tie-break (by story id) chooses among all of them.
  let boundary: string | undefined;
  for (const [terms, published_at, score] of rows) {
    // Leaving the loop ends the statement's iteration.
    if ((boundary !== undefined && published_at < boundary) || budget.spent()) break;
    const term = termOfField(decodeTerms(terms), code);
    if (term === undefined) continue;
    const seen = byTerm.get(term);
    if (seen === undefined) {
      byTerm.set(term, score === undefined ? { newest: published_at } : { newest: published_at, score });
      if (byTerm.size === newestN) boundary = published_at;
      continue;
    }
    if (published_at > seen.newest) seen.newest = published_at;
    if (score !== undefined && (seen.score === undefined || score > seen.score)) seen.score = score;
  }
  const spelled = partition.spellings([...byTerm.keys()]);
  const stories = new Map<string, StoryMatchRow>();
  for (const [term, match] of byTerm) {
    const spelling = spelled.get(term);
    if (spelling) stories.set(spelling.value || spelling.key, match);
  }
  return stories;
}

/**
 * The publisher of every member of the given stories published at or after
 * `from` (those read before the budget ran out). CROSS JOIN keeps the id list
 * outermost: left to itself the planner walks every story term and probes the
 * list for each.
 */
export function storySources(
  partition: ArticlePartition,
  storyIds: readonly string[],
  from: string | undefined,
  budget = new ScanBudget(),
): Array<{ story: string; source: string | null; published_at: string }> {
  const rows = partition.statements
    .get(
      `SELECT coalesce(nullif(t.value, ''), t.key) AS story, a.source, a.published_at
       FROM json_each(@keys) j CROSS JOIN terms t ON t.field = @code AND t.key = j.value
       JOIN postings p ON p.term = t.id JOIN articles a ON a.rowid = p.article
       WHERE @from IS NULL OR a.published_at >= @from`,
    )
    .iterate({
      keys: JSON.stringify([...new Set(storyIds.map(foldValue))]),
      code: FILTER_FIELDS.story_id.code,
      from: from ?? null,
    }) as Iterable<{ story: string; source: string | null; published_at: string }>;
  const sources: Array<{ story: string; source: string | null; published_at: string }> = [];
  for (const row of rows) {
    if (budget.spent()) break;
    sources.push(row);
  }
  return sources;
}

/** A story's size in one monthly index, and its newest member's published_at; `sources` (folded publishers) when counted from its members. */
export interface StorySizeRow {
  story: string;
  count: number;
  outlets: number;
  newest: string;
  sources?: string[];
}

/** Story ids sized by lookup; past this many, the index's stories are read in one pass. */
const LOOKUPS_BEFORE_SCAN = 2_000;

/**
 * The listed stories' sizes here, counting members published at or after
 * `from`: the sizes kept at write time when `from` leaves the index whole,
 * else counted from the members at or after it (those read before the budget
 * ran out).
 */
export function storySizesPart(
  partition: ArticlePartition,
  storyIds: readonly string[],
  from: string | undefined,
  budget: ScanBudget,
): StorySizeRow[] {
  const bounds = partition.stats().bounds;
  if (bounds === undefined) return [];
  if (from === undefined || from <= bounds.oldest) {
    // Many ids (a listing of every story by size): one pass over this index's stories beats a lookup per id.
    const scan = storyIds.length > LOOKUPS_BEFORE_SCAN;
    const wanted = new Set(storyIds);
    return storySummaries(partition, scan ? undefined : storyIds).flatMap(({ story, count, outlets, newest }) =>
      !scan || wanted.has(story) ? [{ story, count, outlets, newest }] : [],
    );
  }
  const counted = new Map<string, { count: number; newest: string; sources: Set<string> }>();
  for (const { story, source, published_at } of storySources(partition, storyIds, from, budget)) {
    let size = counted.get(story);
    if (!size) counted.set(story, (size = { count: 0, newest: published_at, sources: new Set() }));
    size.count++;
    if (published_at > size.newest) size.newest = published_at;
    if (source !== null) size.sources.add(source);
  }
  return [...counted].map(([story, { count, newest, sources }]) => ({
    story,
    count,
    outlets: sources.size,
    newest,
    sources: [...sources],
  }));
}

/** The story an article belongs to now; undefined when the article is not here. */
export function storyOf(partition: ArticlePartition, articleId: string): string | undefined {
  return storyOfArticleId(partition, articleId)?.story ?? undefined;
}

/** This index's part of a listing of the largest stories (federation/story-listing.ts largestStories). */
export interface LargestStoriesPart {
  /** Stories with a member here. */
  stories: number;
  /** The first `k` of them by the order, sized by their members here. */
  top: SizedStory[];
  /** Every story here that began in an earlier monthly index (its id is an earlier member's), sized by its members here. */
  continued: SizedStory[];
}

/**
 * The index's part of a listing by size when the query takes every article
 * here and `sizesFrom` cuts none: the sizes kept at write time answer it, no
 * article is read. A story found only here is sized exactly by its row, so the
 * index's first `k` hold every such story that can reach the first `k`
 * overall; a story that spans indexes is in `continued` wherever it is not at
 * home, and the caller sizes those whole. Undefined when the query or the
 * reach cuts into the index (the caller then matches and sizes the usual way).
 */
export function largestStoriesPart(
  partition: ArticlePartition,
  search: PartitionSearch | null,
  order: SizeOrder,
  k: number,
  sizesFrom: string | undefined,
): LargestStoriesPart | undefined {
  const bounds = partition.stats().bounds;
  if (bounds === undefined) return { stories: 0, top: [], continued: [] };
  if (search === null || !matchesWholeIndex(search) || (sizesFrom !== undefined && sizesFrom > bounds.oldest)) return undefined;
  const rows = storySummaries(partition, undefined);
  const sized = rows.map(({ story, count, outlets, newest }): SizedStory => ({ story_id: story, count, outlets, newest }));
  const continued = sized.filter((row) => monthOf(row.story_id) < partition.month);
  return { stories: rows.length, top: sized.sort(bySize(order)).slice(0, k), continued };
}

/** The stories of given matches (candidates that passed a check), with the newest match and best score of each. */
export function storiesOfHits(
  partition: ArticlePartition,
  hits: ReadonlyArray<{ rowid: number; published_at: string; score?: number }>,
): Map<string, StoryMatchRow> {
  const stories = new Map<string, StoryMatchRow>();
  if (hits.length === 0) return stories;
  const storyOfRow = storiesOfRows(
    partition,
    hits.map((h) => h.rowid),
  );
  for (const hit of hits) {
    const story = storyOfRow.get(hit.rowid);
    if (story === null || story === undefined) continue;
    const seen = stories.get(story);
    if (seen === undefined)
      stories.set(story, { newest: hit.published_at, ...(hit.score === undefined ? {} : { score: hit.score }) });
    else {
      if (hit.published_at > seen.newest) seen.newest = hit.published_at;
      if (hit.score !== undefined && (seen.score === undefined || hit.score > seen.score)) seen.score = hit.score;
    }
  }
  return stories;
}
