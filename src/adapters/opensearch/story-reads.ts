import type { Client } from "@opensearch-project/opensearch";
import type { Bulk_RequestBody } from "@opensearch-project/opensearch/api/_core/bulk.js";
import type { ArticleDetail } from "../../domain/article.js";
import { CANDIDATE_LIMIT } from "../../domain/search-query.js";
import { mostSharedHeadlines, RepresentativeChoice } from "../../domain/stories/representative.js";
import { bySize, type SizeOrder, type SizedStory } from "../../domain/stories/story-order.js";
import { monthOf } from "../../shared/timestamps.js";
import type {
  LargestStories,
  StoryLookup,
  StoryMatch,
  StoryMatches,
  StoryMember,
  StoryQuery,
  StoryRelabel,
  StorySizes,
} from "../../ports/story-index.js";
import type { ArticleDocument } from "./article-document.js";
import type { IndexNames } from "./index-names.js";
import type { MonthReader } from "./month-reader.js";
import { articleQuery, windowClauses, type Query } from "./query-dsl.js";
import type { Aggregations, SearchBody } from "./search-request.js";
import { getArticle } from "./stored-articles.js";

// Stories over the article indices, answered by aggregations on `story_id`:
// the stories a query matches (a terms aggregation with each story's newest
// match and best score), their sizes (members and distinct publishers), one
// story's counts, top publishers, headline tallies, first reporter and newest
// members. Stories are counted by `indexed.story`, the id as written (the
// `story_id` filter field folds it).

/** Stories one listing collects at most (a terms aggregation's buckets); beyond, `total` still counts them all. */
export const MAX_STORIES = 10_000;
/** Distinct stories counted exactly up to here (cardinality's precision threshold, its maximum). */
const COUNT_PRECISION = 40_000;
/**
 * A story's distinct publishers are counted exactly up to here. Each story bucket keeps a sketch of about
 * 2 KB at this threshold (40 KB and more at higher ones), so thousands of stories sized at once stay within a
 * node's memory; a story of more outlets is counted within a few percent.
 */
const OUTLETS_PRECISION = 200;
/** Headlines tallied per story: the most shared are among them. */
const HEADLINES = 100;

interface StoryBucket {
  key: string;
  doc_count: number;
  newest?: { value_as_string?: string };
  best?: { value: number | null };
  outlets?: { value: number };
}

export async function matchStories(reader: MonthReader, query: StoryQuery): Promise<StoryMatches> {
  const ranked = query.keywords !== undefined;
  const size = query.newest !== undefined ? Math.min(MAX_STORIES, query.newest * 2 + 10) : MAX_STORIES;
  const read = await reader.read(
    query.filters,
    {
      query: articleQuery(query.keywords, query.filters, query.check),
      size: 0,
      track_total_hits: true,
      aggs: {
        total: { cardinality: { field: "indexed.story", precision_threshold: COUNT_PRECISION } },
        stories: {
          terms: {
            field: "indexed.story",
            size,
            // The newest first, ties by story id (newest first): the stories a recency listing needs come first.
            ...(query.newest !== undefined ? { order: [{ newest: "desc" }, { _key: "desc" }] } : {}),
          },
          aggs: {
            newest: { max: { field: "indexed.stamp" } },
            ...(ranked ? { best: { max: { script: { source: "_score" } } } } : {}),
          },
        },
      },
    },
    { dfs: ranked, budgetMs: query.budgetMs },
  );
  const aggregations = read.response?.aggregations as
    { total: { value: number }; stories: { buckets: StoryBucket[] } } | undefined;
  const stories: StoryMatch[] = (aggregations?.stories.buckets ?? []).map((b) => ({
    story_id: b.key,
    newest: b.newest?.value_as_string ?? "",
    ...(ranked && b.best?.value != null ? { score: b.best.value } : {}),
  }));
  const total = Math.max(aggregations?.total.value ?? 0, stories.length);
  const matches = read.response?.hits.total?.value ?? 0;
  return {
    stories,
    total,
    ...read.coverage,
    ...(query.check ? { candidates: { approximate: false, passed: total } } : {}),
    usage: { indexQueries: 1, candidatesExamined: query.check ? Math.max(1, Math.min(matches, CANDIDATE_LIMIT)) : 0 },
  };
}

/** Members and distinct publishers of each story, counting members published at or after `from`. */
export async function storySizes(reader: MonthReader, ids: readonly string[], from: string | undefined): Promise<StorySizes> {
  const sizes = new Map<string, { count: number; outlets: number }>();
  const asked = [...new Set(ids)];
  if (asked.length === 0) return { sizes, partitionsRead: [], partitionsFailed: [] };
  const filter: Query[] = [{ terms: { "indexed.story": asked } }, ...windowClauses({ from })];
  const read = await reader.read(
    { from },
    {
      query: { bool: { filter } },
      size: 0,
      track_total_hits: false,
      aggs: {
        stories: {
          terms: { field: "indexed.story", size: asked.length },
          aggs: { outlets: { cardinality: { field: "source", precision_threshold: OUTLETS_PRECISION } } },
        },
      },
    },
  );
  const buckets = (read.response?.aggregations?.stories as { buckets: StoryBucket[] } | undefined)?.buckets ?? [];
  const byKey = new Map(buckets.map((b) => [b.key, { count: b.doc_count, outlets: b.outlets?.value ?? 0 }]));
  for (const id of asked) sizes.set(id, byKey.get(id) ?? { count: 0, outlets: 0 });
  return { sizes, ...read.coverage };
}

export async function largestStories(
  reader: MonthReader,
  query: StoryQuery,
  order: SizeOrder,
  n: number,
  sizesFrom: string | undefined,
): Promise<LargestStories> {
  const { newest: _newest, ...every } = query;
  const matched = await matchStories(reader, every);
  if (matched.stories.length === 0) {
    const { stories: _s, ...rest } = matched;
    return { ...rest, stories: [] };
  }
  // A story is sized by all its members within the reach, not only those the query matched.
  const sized = await storySizes(
    reader,
    matched.stories.map((s) => s.story_id),
    sizesFrom,
  );
  const stories: SizedStory[] = matched.stories
    .map((s) => ({ story_id: s.story_id, newest: s.newest, ...(sized.sizes.get(s.story_id) ?? { count: 0, outlets: 0 }) }))
    .sort(bySize(order))
    .slice(0, n);
  const failed = new Map([...matched.partitionsFailed, ...sized.partitionsFailed].map((f) => [f.partition, f]));
  return {
    stories,
    total: matched.total,
    partitionsRead: matched.partitionsRead.filter((m) => !failed.has(m)),
    partitionsFailed: [...failed.values()],
    ...(matched.candidates ? { candidates: matched.candidates } : {}),
    usage: { ...matched.usage, indexQueries: matched.usage.indexQueries + 1 },
  };
}

type MemberSource = Pick<ArticleDocument, "id" | "title" | "url" | "source" | "indexed">;
const MEMBER_FIELDS = ["id", "title", "url", "source", "indexed.stamp"];
const EARLIEST_FIRST: NonNullable<SearchBody["sort"]> = [{ "indexed.stamp": "asc" }, { id: "asc" }];

function member(source: MemberSource): StoryMember {
  return { id: source.id, title: source.title, url: source.url, source: source.source, published_at: source.indexed.stamp };
}

export async function storyOverview(
  client: Client,
  names: IndexNames,
  reader: MonthReader,
  id: string,
  window: { from?: string | undefined; to?: string | undefined },
  options: { limit: number; sources: number },
  resolved = false,
): Promise<StoryLookup> {
  const filter: Query[] = [{ term: { "indexed.story": id } }, ...windowClauses(window)];
  const aggs: Aggregations = {
    outlets: { cardinality: { field: "source", precision_threshold: COUNT_PRECISION } },
    sources: { terms: { field: "source", size: Math.max(1, options.sources) } },
    headlines: { terms: { field: "indexed.headline", size: HEADLINES } },
    first: { top_hits: { size: 1, sort: EARLIEST_FIRST, _source: { includes: MEMBER_FIELDS } } },
  };
  const read = await reader.read<ArticleDocument>(window, {
    query: { bool: { filter } },
    sort: [{ "indexed.stamp": "desc" }, { id: "desc" }],
    size: options.limit,
    track_total_hits: true,
    _source: { excludes: ["indexed"] },
    aggs,
  });
  const count = read.response?.hits.total?.value ?? 0;
  if (!read.response || count === 0 || read.coverage.partitionsFailed.length > 0) {
    // An article id given for a story it has since left leads to the story it is in now.
    if (!resolved && read.response && count === 0 && /^\d{14}/.test(id)) {
      const article = await getArticle(client, names, id);
      if (article.status === "found" && article.article.story_id !== null && article.article.story_id !== id) {
        return storyOverview(client, names, reader, article.article.story_id, window, options, true);
      }
    }
    return { story: undefined, ...read.coverage };
  }
  const a = read.response.aggregations as {
    outlets: { value: number };
    sources: { buckets: Array<{ key: string }> };
    headlines: { buckets: Array<{ key: string; doc_count: number }> };
    first: { hits: { hits: Array<{ _source: MemberSource }> } };
  };
  const firstSource = a.first.hits.hits[0]?._source;
  if (firstSource === undefined) return { story: undefined, ...read.coverage };
  const firstReported = member(firstSource);
  const shared = mostSharedHeadlines(a.headlines.buckets.map((b) => [b.key, b.doc_count] as const));
  const representative = await chooseRepresentative(reader, window, filter, shared, firstReported);
  return {
    story: {
      story_id: id,
      count,
      outlets: a.outlets.value,
      sources: a.sources.buckets.map((b) => b.key),
      representative,
      first_reported: firstReported,
      listed: read.response.hits.hits.map((h) => h._source as ArticleDetail),
    },
    ...read.coverage,
  };
}

/** The representative (domain/stories/representative.ts): members earliest first until the rule is met. */
async function chooseRepresentative(
  reader: MonthReader,
  window: { from?: string | undefined },
  filter: Query[],
  shared: ReadonlySet<string>,
  first: StoryMember,
): Promise<StoryMember> {
  const choice = new RepresentativeChoice<StoryMember>(shared);
  if (choice.offer(first)) return choice.chosen ?? first;
  // Not the first reporter: the earliest member carrying a most shared headline (without titles, the first is chosen).
  const read = await reader.read<MemberSource>(window, {
    query: { bool: { filter: [...filter, { terms: { "indexed.headline": [...shared] } }] } },
    sort: EARLIEST_FIRST,
    size: 1,
    track_total_hits: false,
    _source: { includes: MEMBER_FIELDS },
  });
  const found = read.response?.hits.hits[0]?._source;
  if (found) choice.offer(member(found));
  return choice.chosen ?? first;
}

/** Moves articles to the story clustering put them in; an article no index holds is skipped. */
export async function relabel(
  client: Client,
  names: IndexNames,
  changes: readonly StoryRelabel[],
  refresh = true,
): Promise<void> {
  const lines: string[] = [];
  for (const change of changes) {
    for (const id of change.article_ids) {
      lines.push(
        JSON.stringify({ update: { _index: names.articleIndex(monthOf(id)), _id: id } }),
        JSON.stringify({ doc: { story_id: change.story_id, indexed: { story: change.story_id } } }),
      );
    }
  }
  if (lines.length === 0) return;
  // Visible to the next read when this returns, as the write of an article is (in a bulk load, when it ends).
  const { body } = await client.bulk({ body: `${lines.join("\n")}\n` as unknown as Bulk_RequestBody, refresh });
  if (!body.errors) return;
  const items = body.items as unknown as Array<{ update?: { status: number; error?: { type?: string; reason?: string } } }>;
  const failed = items.find((i) => i.update?.error && i.update.status !== 404);
  if (failed)
    throw new Error(`OpenSearch refused a story relabel: ${failed.update?.error?.type}: ${failed.update?.error?.reason}`);
}
