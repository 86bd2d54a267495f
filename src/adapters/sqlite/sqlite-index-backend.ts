import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { ArticleDetail } from "../../domain/article.js";
import type { ArticleQuery } from "../../domain/search-query.js";
import type { SignalName } from "../../domain/vocabularies/signals-v1.js";
import type { ExportQuery, ExportWalk } from "../../ports/article-export.js";
import type { AggregateQuery, AggregateResult, SearchResult, SignalPercentile } from "../../ports/article-search.js";
import type { ArticleLookup, WriteResult } from "../../ports/article-store.js";
import type { EntitySpellings, EntitySpellingsQuery } from "../../ports/entity-lexicon.js";
import type { IndexBackend } from "../../ports/index-backend.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import type { IndexMaintenance, RebuildProgress, RebuildSummary } from "../../ports/index-maintenance.js";
import type {
  LargestStories,
  StoryIndex,
  StoryLookup,
  StoryMatches,
  StoryQuery,
  StoryRelabel,
  StorySizes,
} from "../../ports/story-index.js";
import type { NearestQuery, NearestResult, VectorLookup } from "../../ports/vector-search.js";
import type { SizeOrder } from "../../domain/stories/story-order.js";
import { MonthlyIndexes } from "./catalog/monthly-indexes.js";
import { FederatedDocuments } from "./federation/federated-documents.js";
import { FederatedLexicon } from "./federation/federated-lexicon.js";
import { FederatedSearch } from "./federation/federated-search.js";
import { FederatedTallies } from "./federation/federated-tallies.js";
import { FederatedVectors } from "./federation/federated-vectors.js";
import { StoryListings } from "./federation/story-listing.js";
import { StoryLookups } from "./federation/story-lookup.js";
import { DerivedRebuild } from "./maintenance/derived-rebuild.js";
import { ANN_MIN_MATCHES } from "./partition-nearest.js";
import { ReadPool, type Lane } from "./read-pool.js";
import { openSqliteExport } from "./sqlite-export.js";
import { IndexWrites } from "./writes/index-writes.js";

// The embedded index: one SQLite file per calendar month of `collected_at`
// under <dataDir>/index (catalog/). Each port's capability is one part:
// writes (writes/), maintenance (maintenance/), and the reads, which walk
// every monthly index that can hold a match on the read pool's threads
// (partition-walker.ts, read-pool.ts; partition-*.ts read one index) and merge
// across months (federation/, one file per capability). A monthly index that
// cannot be read is reported, not fatal.

export interface SqliteIndexOptions {
  /**
   * Run writes on a worker thread (default), so an ingest parses the next
   * batch while the last one is written; false writes on the calling thread.
   */
  writerThread?: boolean;
  /** Read threads per lane (read-pool.ts); by default as many heavy ones as cores (at most 4), and one light one. */
  readThreads?: Record<Lane, number>;
  /** Semantic ranking: an index's HNSW graph answers when its filters can match at least this many articles. */
  annMinMatches?: number;
}

export class SqliteIndexBackend implements IndexBackend, StoryIndex, IndexMaintenance {
  private readonly indexes: MonthlyIndexes;
  private readonly pool: ReadPool;
  private readonly writes: IndexWrites;
  private readonly documents: FederatedDocuments;
  private readonly searches: FederatedSearch;
  private readonly tallies: FederatedTallies;
  private readonly lexicon: FederatedLexicon;
  private readonly vectors: FederatedVectors;
  private readonly storyLookups: StoryLookups;
  private readonly storyListings: StoryListings;
  private readonly maintenance: DerivedRebuild;

  constructor(dataDir: string, options: SqliteIndexOptions = {}) {
    this.indexes = new MonthlyIndexes(join(dataDir, "index"));
    this.writes = new IndexWrites(this.indexes, options.writerThread ?? true);
    const pool = new ReadPool(this.indexes.dir, options.readThreads ?? { heavy: Math.min(4, availableParallelism()), light: 1 });
    this.pool = pool;
    this.documents = new FederatedDocuments(pool, this.indexes);
    this.searches = new FederatedSearch(pool, this.indexes, this.documents);
    this.tallies = new FederatedTallies(pool, this.indexes);
    this.lexicon = new FederatedLexicon(pool, this.indexes);
    this.vectors = new FederatedVectors(pool, this.indexes, options.annMinMatches ?? ANN_MIN_MATCHES);
    this.storyLookups = new StoryLookups(pool, this.indexes);
    this.storyListings = new StoryListings(pool, this.indexes);
    this.maintenance = new DerivedRebuild(this.indexes);
  }

  write(articles: readonly ArticleDetail[]): Promise<WriteResult> {
    return this.writes.write(articles);
  }

  getArticle(id: string): Promise<ArticleLookup> {
    return this.documents.getArticle(id);
  }

  getArticles(ids: readonly string[]): Promise<{ articles: Map<string, ArticleDetail>; partitionsFailed: PartitionFailure[] }> {
    return this.documents.getArticles(ids);
  }

  count(): Promise<number> {
    return this.documents.count();
  }

  search(query: ArticleQuery): Promise<SearchResult> {
    return this.searches.search(query);
  }

  signalPercentile(
    query: Pick<ArticleQuery, "keywords" | "filters" | "budgetMs">,
    signal: SignalName,
    percentile: number,
  ): Promise<SignalPercentile> {
    return this.tallies.signalPercentile(query, signal, percentile);
  }

  aggregate(query: AggregateQuery): Promise<AggregateResult> {
    return this.tallies.aggregate(query);
  }

  entitySpellings(query: EntitySpellingsQuery): Promise<EntitySpellings> {
    return this.lexicon.entitySpellings(query);
  }

  nearest(query: NearestQuery): Promise<NearestResult> {
    return this.vectors.nearest(query);
  }

  vectorOf(id: string, model: string): Promise<VectorLookup> {
    return this.vectors.vectorOf(id, model);
  }

  /** An export's keyset walk over the monthly indexes that can hold a match (sqlite-export.ts). */
  openExport(query: ExportQuery, tieLimit: number): Promise<ExportWalk> {
    return openSqliteExport(this.pool, this.indexes.monthsFor(query), query, tieLimit);
  }

  storyOverview(
    storyId: string,
    window: { from?: string | undefined; to?: string | undefined },
    options: { limit: number; sources: number },
  ): Promise<StoryLookup> {
    return this.storyLookups.storyOverview(storyId, window, options);
  }

  storyOverviews(
    storyIds: readonly string[],
    window: { from?: string | undefined; to?: string | undefined },
    options: { limit: number; sources: number },
  ): Promise<StoryLookup[]> {
    return this.storyLookups.storyOverviews(storyIds, window, options);
  }

  matchStories(query: StoryQuery): Promise<StoryMatches> {
    return this.storyListings.matchStories(query);
  }

  largestStories(query: StoryQuery, order: SizeOrder, n: number, sizesFrom: string | undefined): Promise<LargestStories> {
    return this.storyListings.largestStories(query, order, n, sizesFrom);
  }

  storySizes(storyIds: readonly string[], from: string | undefined): Promise<StorySizes> {
    return this.storyListings.storySizes(storyIds, from);
  }

  relabel(changes: readonly StoryRelabel[]): Promise<void> {
    return this.writes.relabel(changes);
  }

  rebuildDerived(options: { batch?: number; onProgress?: (progress: RebuildProgress) => void } = {}): Promise<RebuildSummary> {
    return this.maintenance.rebuildDerived(options);
  }

  /** Months with an index, newest first (catalog/monthly-indexes.ts). */
  months(): string[] {
    return this.indexes.months();
  }

  /** The file of a monthly index. */
  pathOf(month: string): string {
    return this.indexes.pathOf(month);
  }

  /** Starts the read threads (read-pool.ts start()); resolves once they answer. */
  startReads(): Promise<void> {
    return this.pool.start();
  }

  async close(): Promise<void> {
    await this.writes.close();
    await this.pool.close();
  }
}
