import type { Client } from "@opensearch-project/opensearch";
import type { ArticleDetail } from "../../domain/article.js";
import type { ArticleQuery } from "../../domain/search-query.js";
import type { SignalName } from "../../domain/vocabularies/signals-v1.js";
import type {
  AggregateQuery,
  AggregateResult,
  ArticleSearch,
  SearchResult,
  SignalPercentile,
} from "../../ports/article-search.js";
import type { ArticleExporter, ExportQuery, ExportWalk } from "../../ports/article-export.js";
import type { ArticleLookup, ArticleStore, WriteResult } from "../../ports/article-store.js";
import type { EntityLexicon, EntitySpellings, EntitySpellingsQuery } from "../../ports/entity-lexicon.js";
import type { IndexBackend } from "../../ports/index-backend.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import type { NearestQuery, NearestResult, VectorLookup } from "../../ports/vector-search.js";
import type { IndexMaintenance, RebuildSummary } from "../../ports/index-maintenance.js";
import type {
  LargestStories,
  StoryIndex,
  StoryLookup,
  StoryMatches,
  StoryQuery,
  StoryRelabel,
  StorySizes,
} from "../../ports/story-index.js";
import type { SizeOrder } from "../../domain/stories/story-order.js";
import { aggregateSeries } from "./aggregate-series.js";
import { ArticleIndices } from "./article-indices.js";
import type { ArticleIndexOptions } from "./article-mapping.js";
import { BulkLoad } from "./bulk-load.js";
import { bulkCreate } from "./bulk-write.js";
import { entitySpellings } from "./entity-spellings.js";
import { nearest, vectorOf } from "./vector-search.js";
import { largestStories, matchStories, relabel, storyOverview, storySizes } from "./story-reads.js";
import { openExportWalk } from "./export-walk.js";
import { IndexNames } from "./index-names.js";
import { MonthReader } from "./month-reader.js";
import { searchArticles } from "./search-articles.js";
import { signalPercentile } from "./signal-percentile.js";
import { countArticles, getArticle, getArticles } from "./stored-articles.js";

// The scaled shape's article index: monthly OpenSearch indices behind a read
// alias (article-mapping.ts), written with _bulk and read with one search per
// query, every capability answered by the node (queries and aggregations),
// never by pulling documents into Node.

export interface OpenSearchIndexOptions extends Partial<ArticleIndexOptions> {
  /** Names of indices, aliases and templates start with it (config `opensearchPrefix`). */
  prefix: string;
  /**
   * False leaves written articles to the node's periodic refresh (about a second) instead of one per write: faster
   * bulk loads, for a writer nothing reads right behind. The port's promise (searchable when `write` returns) needs it.
   */
  refreshOnWrite?: boolean;
}

export class OpenSearchIndex implements IndexBackend, StoryIndex, IndexMaintenance {
  readonly names: IndexNames;
  /** The monthly indices (the embedding stage reads them too). */
  readonly indices: ArticleIndices;
  private readonly reader: MonthReader;
  private readonly refreshOnWrite: boolean;
  /** The bulk load under way, if any, and how many loads share it (bulkLoad). */
  private load: BulkLoad | undefined;
  private loads = 0;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly client: Client,
    options: OpenSearchIndexOptions,
  ) {
    this.names = new IndexNames(options.prefix);
    this.refreshOnWrite = options.refreshOnWrite ?? true;
    this.indices = new ArticleIndices(client, this.names, { shards: options.shards ?? 1, replicas: options.replicas ?? 0 });
    this.reader = new MonthReader(client, this.indices);
  }

  async write(articles: readonly ArticleDetail[]): Promise<WriteResult> {
    if (articles.length === 0) return { inserted: 0, unchanged: 0 };
    await this.indices.ensureTemplate();
    try {
      const written = await bulkCreate(this.client, this.names, articles, this.refreshOnWrite && this.load === undefined);
      await this.load?.wrote(articles);
      return written;
    } finally {
      // The write may have created a month.
      this.indices.forget();
    }
  }

  /**
   * A bulk load (port: ArticleStore.bulkLoad): writes inside it are not refreshed, and the monthly indices they
   * write into stop their periodic refresh (refresh_interval -1) until it ends, so the node writes larger segments
   * and merges less. Loads under way at once (a feed slot beside a backfill) share the pause: each one refreshes
   * what it wrote when it ends, and the last one to end gives every index its refresh interval back.
   */
  async bulkLoad<T>(load: () => Promise<T>): Promise<T> {
    await this.indices.ensureTemplate();
    this.load ??= new BulkLoad(this.client, this.names);
    this.loads++;
    try {
      return await load();
    } finally {
      const ending = this.load;
      const last = --this.loads === 0;
      if (last) this.load = undefined;
      await ending.end(last);
    }
  }

  getArticle(id: string): Promise<ArticleLookup> {
    return getArticle(this.client, this.names, id);
  }

  getArticles(ids: readonly string[]): Promise<{ articles: Map<string, ArticleDetail>; partitionsFailed: PartitionFailure[] }> {
    return getArticles(this.client, this.names, ids);
  }

  count(): Promise<number> {
    return countArticles(this.client, this.names);
  }

  search(query: ArticleQuery): Promise<SearchResult> {
    return searchArticles(this.reader, query);
  }

  signalPercentile(
    query: Pick<ArticleQuery, "keywords" | "filters" | "budgetMs">,
    signal: SignalName,
    percentile: number,
  ): Promise<SignalPercentile> {
    return signalPercentile(this.reader, query, signal, percentile);
  }

  aggregate(query: AggregateQuery): Promise<AggregateResult> {
    return aggregateSeries(this.reader, query);
  }

  entitySpellings(query: EntitySpellingsQuery): Promise<EntitySpellings> {
    return entitySpellings(this.reader, query);
  }

  nearest(query: NearestQuery): Promise<NearestResult> {
    return nearest(this.reader, this.names, query);
  }

  vectorOf(id: string, model: string): Promise<VectorLookup> {
    return vectorOf(this.client, this.names, id, model);
  }

  storyOverview(
    storyId: string,
    window: { from?: string | undefined; to?: string | undefined },
    options: { limit: number; sources: number },
  ): Promise<StoryLookup> {
    return storyOverview(this.client, this.names, this.reader, storyId, window, options);
  }

  storyOverviews(
    storyIds: readonly string[],
    window: { from?: string | undefined; to?: string | undefined },
    options: { limit: number; sources: number },
  ): Promise<StoryLookup[]> {
    return Promise.all(storyIds.map((id) => this.storyOverview(id, window, options)));
  }

  matchStories(query: StoryQuery): Promise<StoryMatches> {
    return matchStories(this.reader, query);
  }

  largestStories(query: StoryQuery, order: SizeOrder, n: number, sizesFrom: string | undefined): Promise<LargestStories> {
    return largestStories(this.reader, query, order, n, sizesFrom);
  }

  storySizes(storyIds: readonly string[], from: string | undefined): Promise<StorySizes> {
    return storySizes(this.reader, storyIds, from);
  }

  relabel(changes: readonly StoryRelabel[]): Promise<void> {
    return relabel(this.client, this.names, changes, this.refreshOnWrite && this.load === undefined);
  }

  /**
   * Every monthly index is created from the template of this version, with every derived field: nothing to rebuild.
   * (A template change is a new layout version, written into new indices; see article-mapping.ts.)
   */
  async rebuildDerived(): Promise<RebuildSummary> {
    return { months: [], articles: 0, skipped: [] };
  }

  openExport(query: ExportQuery, tieLimit: number): Promise<ExportWalk> {
    return openExportWalk(this.client, this.indices, query, tieLimit);
  }

  /** Closes the client: the index owns it (tests sharing one client leave this to the client's owner). */
  /** Closes once: the client's second close, after a request met it closed, would wait forever. */
  close(): Promise<void> {
    this.closing ??= this.client.close();
    return this.closing;
  }
}
