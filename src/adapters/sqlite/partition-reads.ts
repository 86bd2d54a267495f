import type { PartitionFacet } from "../../domain/facets.js";
import type { SizeOrder } from "../../domain/stories/story-order.js";
import type { ArticleFilters, CandidateCheck } from "../../domain/search-query.js";
import type { ExportView } from "../../domain/export-lines.js";
import { ArticlePartition, closeQuietly } from "./article-partition.js";
import { entitySpellingsPart, type EntitySpellingsPart } from "./entity-keys.js";
import { aggregatePart, type AggregatePartRow } from "./partition-aggregate.js";
import { talliesAnswer, tallyAggregatePart } from "./partition-tallies.js";
import type { Interval } from "../../domain/aggregate/buckets.js";
import type { Keyset, PartitionSearch } from "./match-conditions.js";
import { partitionPath } from "./catalog/partition-catalog.js";
import { countFacets, countFacetsOf } from "./partition-facets.js";
import { checkCandidates, type CheckedCandidates } from "./partition-candidates.js";
import { candidates, countMatches, type PartitionHit } from "./partition-search.js";
import {
  exportCountPart,
  exportKeys,
  exportLines,
  type ExportCountArgs,
  type ExportCountPart,
  type ExportLinesPart,
} from "./partition-export.js";
import { nearest, vectorOfArticle, type NearestPart, type VectorOfArticle } from "./partition-nearest.js";
import {
  largestStoriesPart,
  newestStories,
  storyMatches,
  storyOf,
  storiesOfHits,
  storySizesPart,
  type LargestStoriesPart,
  type StoryMatchRow,
  type StorySizeRow,
} from "./partition-stories.js";
import { ScanBudget } from "./scan-budget.js";
import { browsePage, type BrowsePage, type BrowsePageArgs } from "./partition-browse.js";
import type { MonthConnections } from "./month-reads.js";
import { describeStory, type StoryDescription, type StoryDescriptionArgs } from "./story-description.js";
import { UnmappedConnections } from "./unmapped-connections.js";
import { signalValuesOf, type SignalValuesPart } from "./partition-signals.js";
import type { DerivedVocabulary } from "./partition-schema.js";
import { signalCode } from "../../domain/vocabularies/signals-v1.js";
import { FILTER_FIELDS } from "../../domain/filter-fields.js";
import { storySourceKeys } from "./story-summaries.js";
import type { RankFeatures, RankStats } from "./bm25.js";
import { rankFeatures, rankStats } from "./partition-ranking.js";

// What a read thread (read-worker.ts) does for one monthly index: each job
// named in ReadJobs, on the thread's own connection to that index. A query
// crosses to the thread as its filters and FTS5 expression and is compiled
// there, against the index's own terms and bounds.

/** A query as every monthly index is asked it. */
export interface QueryArgs {
  filters: ArticleFilters;
  /** FTS5 MATCH expression; absent on a browse. */
  match?: string;
  /** Geographic and amount filters, checked on the first candidates (partition-candidates.ts). */
  check?: CandidateCheck;
}

/**
 * A scan that may stop when the query's budget runs out: `timedOut` says it read only part of the index;
 * `fieldUnavailable` that the index was built without a derived field the query needs, so it was not searched.
 */
export interface Scanned {
  timedOut?: boolean;
  fieldUnavailable?: boolean;
}

/** One monthly index's part of a search. */
export interface SearchPart extends Scanned {
  total: number;
  /** Absent when nothing here can match, or none of it can reach the page (older than `floor`). */
  hits?: PartitionHit[];
  /** By field code; present when facets were asked for. */
  facets?: Map<number, PartitionFacet>;
  /** Something here can match: later pages of the query read this index again. */
  matched: boolean;
  /** On a keyword search: this index's statistics, and per hit what corpus-wide scoring needs (bm25.ts). */
  ranking?: RankStats;
  features?: RankFeatures[];
  /** With geographic or amount filters: what checking the candidates took and found. */
  checked?: CheckedPart;
}

/** What checking one index's candidates took: candidates examined, whether it cut, matches found and matches estimated. */
export interface CheckedPart {
  examined: number;
  cut: boolean;
  passed: number;
  total: number;
}

export interface StoryMatchesPart extends Scanned {
  stories: Map<string, StoryMatchRow>;
  /** With geographic or amount filters: what checking the candidates took and found. */
  checked?: CheckedPart;
  /** Every story of the index, on a browse of all of it in recency order (see newestStories). */
  all?: string[];
}

/** Each job's arguments and result. `deadline` (ms since the epoch) is when a scan stops. */
export interface ReadJobs {
  search: {
    args: QueryArgs & {
      n: number;
      keyset?: Keyset;
      /** A browse: no candidate older than this can reach the page. */
      floor?: string;
      facets?: { codes: number[]; depth: number };
      /** On a keyword search, the phrases it is scored on (fts-match.ts scoredPhrases). */
      phrases?: string[];
      deadline?: number;
    };
    result: SearchPart;
  };
  /** A whole browse page over several months (partition-browse.ts); `month` is the newest of `args.months`. */
  browsePage: { args: QueryArgs & BrowsePageArgs; result: BrowsePage };
  /** A story described whole over the months that can hold it (story-description.ts); `month` is the newest. */
  storyDescription: { args: StoryDescriptionArgs; result: StoryDescription };
  rankStats: { args: { phrases: string[] }; result: RankStats };
  /** Intensities of one signal (signals-v1 code) over the matches carrying it: how many, and the largest (`top`). */
  signalValues: {
    args: QueryArgs & { code: number; top?: number; deadline?: number };
    result: Scanned & SignalValuesPart;
  };
  candidates: { args: QueryArgs & { n: number; keyset: Keyset }; result: PartitionHit[] };
  docs: { args: { ids: string[] }; result: Map<string, string> };
  doc: { args: { id: string }; result: string | undefined };
  storyMatches: { args: QueryArgs & { newest?: number; deadline?: number }; result: StoryMatchesPart };
  /** Undefined when the query or `sizesFrom` cuts into the index. */
  largestStories: {
    args: QueryArgs & { order: SizeOrder; k: number; sizesFrom?: string };
    result: LargestStoriesPart | undefined;
  };
  storySizes: {
    args: { storyIds: string[]; from?: string; deadline?: number };
    result: Scanned & { rows: StorySizeRow[] };
  };
  storySourceKeys: { args: { storyIds: string[] }; result: Array<{ story: string; source: string }> };
  storyOf: { args: { articleId: string }; result: string | undefined };
  count: { args: Record<string, never>; result: number };
  entitySpellings: { args: Parameters<typeof entitySpellingsPart>[1]; result: EntitySpellingsPart };
  aggregate: {
    args: QueryArgs & { interval: Interval; metrics: { stories: boolean; outlets: boolean; signals?: number[] } };
    result: { rows: AggregatePartRow[]; fieldUnavailable?: true };
  };
  /** Semantic ranking (partition-nearest.ts): the `k` filter matches nearest `vector`. */
  nearest: {
    args: QueryArgs & { vector: Float32Array; model: string; k: number; excludeStory?: string; annMinMatches: number };
    result: NearestPart & { fieldUnavailable?: true };
  };
  vectorOf: { args: { id: string; model: string }; result: VectorOfArticle };
  /** An export (partition-export.ts): counts before the walk, then keys in export order and their documents' lines. */
  exportCount: { args: QueryArgs & ExportCountArgs; result: Scanned & ExportCountPart };
  exportKeys: { args: QueryArgs & { n: number; keyset?: Keyset }; result: PartitionHit[] };
  exportLines: { args: { rowids: number[]; view: ExportView; into?: SharedArrayBuffer }; result: ExportLinesPart };
}

export type ReadJob = keyof ReadJobs;

export type ReadRequest = { [J in ReadJob]: { job: J; month: string; args: ReadJobs[J]["args"] } }[ReadJob];

/** Jobs reading several months in one call: each month's failure is part of their answer, no month is opened first. */
type SpanJob = "browsePage" | "storyDescription";

type Handlers = {
  [J in Exclude<ReadJob, SpanJob>]: (partition: ArticlePartition, args: ReadJobs[J]["args"]) => ReadJobs[J]["result"];
};

type SpanHandlers = { [J in SpanJob]: (args: ReadJobs[J]["args"], months: MonthConnections) => ReadJobs[J]["result"] };

const HANDLERS: Handlers = {
  search(partition, args) {
    const search = compile(partition, args, args.facets?.codes);
    // The statistics are the index's whatever the query matches here: every index counts in corpus-wide scores.
    const ranking = args.phrases === undefined ? undefined : rankStats(partition, args.phrases);
    if (search === FIELD_UNAVAILABLE)
      return { total: 0, matched: false, fieldUnavailable: true, ...(ranking ? { ranking } : {}) };
    if (search === null) return ranking ? { total: 0, matched: false, ranking } : { total: 0, matched: false };
    const part: SearchPart = { total: 0, matched: true };
    if (args.check) {
      const checked = checkCandidates(partition, search, args.check);
      part.total = checked.total;
      part.checked = checkedPart(checked);
      part.hits = checked.passed.slice(0, args.n);
      if (args.facets) {
        const rowids = checked.passed.map((hit) => hit.rowid);
        part.facets = countFacetsOf(partition, rowids, args.facets.codes, args.facets.depth);
      }
    } else if (args.facets) {
      // One pass over the match set counts the facets and the total together.
      const counted = countFacets(partition, search, args.facets.codes, args.facets.depth, new ScanBudget(args.deadline));
      part.total = counted.total;
      part.facets = counted.facets;
      if (counted.timedOut) part.timedOut = true;
    } else {
      part.total = countMatches(partition, search);
    }
    if (!args.check && (args.floor === undefined || search.newest >= args.floor)) {
      part.hits = candidates(partition, search, args.n, args.keyset);
    }
    if (ranking && args.phrases) {
      part.ranking = ranking;
      part.features = rankFeatures(partition, part.hits ?? [], args.phrases, ranking, search.match as string);
    }
    return part;
  },
  rankStats: (partition, args) => rankStats(partition, args.phrases),
  candidates(partition, args) {
    const search = compile(partition, args);
    return search === null || search === FIELD_UNAVAILABLE ? [] : candidates(partition, search, args.n, args.keyset);
  },
  signalValues(partition, args) {
    const search = compile(partition, args);
    if (search === FIELD_UNAVAILABLE) return { count: 0, values: new Float64Array(0), fieldUnavailable: true };
    if (search === null) return { count: 0, values: new Float64Array(0) };
    const budget = new ScanBudget(args.deadline);
    const part = signalValuesOf(partition, search, args.code, budget, args.top);
    return budget.timedOut ? { ...part, timedOut: true } : part;
  },
  docs: (partition, args) => partition.getDocs(args.ids),
  doc: (partition, args) => partition.getDoc(args.id),
  storyMatches(partition, args) {
    const search = compile(partition, args);
    if (search === FIELD_UNAVAILABLE) return { stories: new Map(), fieldUnavailable: true };
    if (search === null) return { stories: new Map() };
    if (args.check) {
      const checked = checkCandidates(partition, search, args.check);
      return { stories: storiesOfHits(partition, checked.passed), checked: checkedPart(checked) };
    }
    const budget = new ScanBudget(args.deadline);
    // A story among a monthly index's n newest is found whole: every story of the n newest overall is among the n
    // newest of the index holding its newest match.
    const browsed = args.newest === undefined ? undefined : newestStories(partition, search, args.newest, budget);
    const part: StoryMatchesPart = browsed
      ? { stories: browsed.newest, all: browsed.all }
      : { stories: storyMatches(partition, search, budget) };
    if (budget.timedOut) part.timedOut = true;
    return part;
  },
  largestStories(partition, args) {
    const search = compile(partition, args);
    // A query on a derived field cuts into the index: the caller matches stories instead (storyMatches).
    return search === FIELD_UNAVAILABLE ? undefined : largestStoriesPart(partition, search, args.order, args.k, args.sizesFrom);
  },
  storySizes(partition, args) {
    const budget = new ScanBudget(args.deadline);
    const rows = storySizesPart(partition, args.storyIds, args.from, budget);
    return budget.timedOut ? { rows, timedOut: true } : { rows };
  },
  storySourceKeys: (partition, args) => storySourceKeys(partition, args.storyIds),
  storyOf: (partition, args) => storyOf(partition, args.articleId),
  count: (partition) => partition.count(),
  entitySpellings: (partition, args) => entitySpellingsPart(partition, args),
  aggregate(partition, args) {
    // Signal metrics read signals-v1 like a signal filter: a month without it cannot give them.
    const search = compile(partition, args, [], (args.metrics.signals?.length ?? 0) > 0 ? ["signals-v1"] : []);
    if (search === FIELD_UNAVAILABLE) return { rows: [], fieldUnavailable: true };
    if (search === null) return { rows: [] };
    // A window and the counts alone: the time tallies answer, without reading the articles.
    if (talliesAnswer(partition, search, args.metrics))
      return { rows: tallyAggregatePart(partition, search, args.interval, args.metrics) };
    return { rows: aggregatePart(partition, search, args.interval, args.metrics) };
  },
  nearest(partition, args) {
    const search = compile(partition, args);
    if (search === FIELD_UNAVAILABLE) return { hits: [], scored: 0, unembedded: 0, fieldUnavailable: true };
    return nearest(partition, search, args.vector, args.model, args.k, args.excludeStory, args.annMinMatches);
  },
  vectorOf: (partition, args) => vectorOfArticle(partition, args.id, args.model),
  // An export's reads (UNMAPPED_JOBS) are given a connection that maps nothing.
  exportCount(partition, args): Scanned & ExportCountPart {
    const search = compile(partition, args);
    if (search === FIELD_UNAVAILABLE) return { total: 0, remaining: 0, groups: [], fieldUnavailable: true };
    return search === null ? { total: 0, remaining: 0, groups: [] } : exportCountPart(partition, search, args);
  },
  exportKeys(partition, args) {
    const search = compile(partition, args);
    return search === null || search === FIELD_UNAVAILABLE ? [] : exportKeys(partition, search, args.n, args.keyset);
  },
  exportLines: (partition, args) => exportLines(partition, args.rowids, args.view, args.into),
};

const SPAN_HANDLERS: SpanHandlers = {
  browsePage(args, connections) {
    const { months, n, offset, deadline, ...query } = args;
    return browsePage({ months, n, offset, ...(deadline === undefined ? {} : { deadline }) }, connections, (partition, floor) =>
      HANDLERS.search(partition, { ...query, n, ...(floor === undefined ? {} : { floor }) }),
    );
  },
  storyDescription: (args, connections) => describeStory(args, connections),
};

const isSpanJob = (job: ReadJob): job is SpanJob => job in SPAN_HANDLERS;

/** Reads of a whole index once over (an export's, the count's too): through a connection that maps nothing. */
const UNMAPPED_JOBS: ReadonlySet<ReadJob> = new Set(["exportCount", "exportKeys", "exportLines"]);

/** One thread's connections to the monthly indexes under `dir`, opened on first use; an export's reads go through unmapped-connections.ts. */
export class PartitionReader implements MonthConnections {
  private readonly connections = new Map<string, ArticlePartition>();
  private readonly unmapped = new UnmappedConnections();

  constructor(private readonly dir: string) {}

  run(request: ReadRequest): unknown {
    if (isSpanJob(request.job)) {
      return (SPAN_HANDLERS[request.job] as (args: unknown, months: MonthConnections) => unknown)(request.args, this);
    }
    const handle = HANDLERS[request.job] as (p: ArticlePartition, args: unknown) => unknown;
    if (UNMAPPED_JOBS.has(request.job)) {
      return this.unmapped.run(request.month, partitionPath(this.dir, request.month), (own) => handle(own, request.args));
    }
    const partition = this.open(request.month);
    try {
      return handle(partition, request.args);
    } catch (error) {
      // A connection that failed a read (a damaged or replaced file) is opened again next time.
      this.forget(request.month);
      throw error;
    }
  }

  /** The month's connection, opened on first use. */
  open(month: string): ArticlePartition {
    let partition = this.connections.get(month);
    if (!partition) {
      partition = new ArticlePartition(month, partitionPath(this.dir, month), { create: false });
      this.connections.set(month, partition);
    }
    return partition;
  }

  forget(month: string): void {
    closeQuietly(this.connections.get(month));
    this.connections.delete(month);
  }
}

function checkedPart(checked: CheckedCandidates): CheckedPart {
  return { examined: checked.examined, cut: checked.cut, passed: checked.passed.length, total: checked.total };
}

/** The index was built without a derived field the query needs (partition-schema.ts `derived_fields`). */
const FIELD_UNAVAILABLE = "field_unavailable";

/**
 * The query as one partition runs it: filters resolved to its terms, the window
 * kept only where it cuts into the partition. Null when nothing here can match;
 * FIELD_UNAVAILABLE when it needs a derived vocabulary this index lacks (for its filters, the facets it counts,
 * or `alsoNeeded`).
 */
function compile(
  partition: ArticlePartition,
  query: QueryArgs,
  facetCodes: readonly number[] = [],
  alsoNeeded: readonly DerivedVocabulary[] = [],
): PartitionSearch | null | typeof FIELD_UNAVAILABLE {
  const needed = [...vocabulariesNeeded(query, facetCodes), ...alsoNeeded];
  if (needed.length > 0) {
    const built = partition.derivedFields();
    if (needed.some((v) => !built.has(v))) return FIELD_UNAVAILABLE;
  }
  const { count, bounds } = partition.stats();
  if (bounds === undefined) return null;
  const { from, to } = query.filters;
  if ((from !== undefined && from > bounds.newest) || (to !== undefined && to < bounds.oldest)) return null;
  const terms = partition.resolve(query.filters);
  if (terms === null) return null;
  const search: PartitionSearch = { terms, ranges: [], articles: count, newest: bounds.newest };
  for (const range of query.filters.signal_ranges ?? []) {
    // A range matches articles carrying the signal: its term drives or narrows the query like any filter.
    if (!terms.some((t) => t.field === "signal" && t.key === range.name)) {
      const term = partition.resolve({ signal: range.name });
      if (term === null) return null;
      terms.push(...term);
    }
    search.ranges.push({
      code: signalCode(range.name),
      ...(range.min === undefined ? {} : { min: range.min }),
      ...(range.max === undefined ? {} : { max: range.max }),
    });
  }
  terms.sort((a, b) => a.docs - b.docs);
  if (query.match !== undefined) search.match = query.match;
  if (from !== undefined && from > bounds.oldest) search.from = from;
  if (to !== undefined && to < bounds.newest) search.to = to;
  return search;
}

/** The derived vocabularies a query needs, for its filters and the fields it counts. */
function vocabulariesNeeded({ filters, check }: QueryArgs, facetCodes: readonly number[]): DerivedVocabulary[] {
  const needed: DerivedVocabulary[] = [];
  if (check?.area !== undefined) needed.push("geo-v1");
  if (check?.amount !== undefined) needed.push("amounts-v1");
  if (filters.event_type !== undefined || facetCodes.includes(FILTER_FIELDS.event_type.code)) needed.push("events-v1");
  if (
    filters.signal !== undefined ||
    (filters.signal_ranges?.length ?? 0) > 0 ||
    facetCodes.includes(FILTER_FIELDS.signal.code)
  ) {
    needed.push("signals-v1");
  }
  return needed;
}
