import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { FeedClient } from "./adapters/gdelt/feed-client.js";
import { GkgArticleSource } from "./adapters/gdelt/gkg-source.js";
import { withParseThread } from "./adapters/gdelt/parse-thread.js";
import { PublisherCountryLookup } from "./adapters/gdelt/publisher-country.js";
import { openSearchClient } from "./adapters/opensearch/client.js";
import { OpenSearchEmbeddingStage } from "./adapters/opensearch/embedding-stage.js";
import { OpenSearchIndex } from "./adapters/opensearch/opensearch-index.js";
import { OpenSearchIndexLifecycle } from "./adapters/opensearch/index-lifecycle.js";
import { PostgresControlStore } from "./adapters/postgres/control-store.js";
import { PostgresStoryStore } from "./adapters/postgres/story-store.js";
import { PostgresClusteringThread } from "./adapters/postgres/cluster-thread.js";
import { SqliteControlStore } from "./adapters/sqlite/control-store.js";
import { LazyEmbedder } from "./adapters/onnx/lazy-embedder.js";
import { ONNX_EMBEDDER_LOADER } from "./adapters/onnx/parallel-embedder.js";
import { SHIPPED_MODEL_DIR } from "./adapters/onnx/shipped-model.js";
import { SqliteEmbeddingStage } from "./adapters/sqlite/embedding-stage.js";
import { SqliteIndexBackend } from "./adapters/sqlite/sqlite-index-backend.js";
import { SqliteClusteringThread } from "./adapters/sqlite/cluster-thread.js";
import { SqliteStoryStore } from "./adapters/sqlite/story-store.js";
import { PinnedWebhookSender } from "./adapters/webhooks/pinned-webhook-sender.js";
import type { Config } from "./config/config.js";
import type { OperationDeps } from "./app/operation.js";
import type { EmbeddingStage } from "./ports/embedding-stage.js";
import type { FollowerLease, SlotLedger } from "./ports/slot-ledger.js";
import type { SlotKind } from "./domain/feed-slots.js";
import { FeedFollower } from "./usecases/feed/feed-follower.js";
import type { IndexBackend } from "./ports/index-backend.js";
import type { IndexMaintenance } from "./ports/index-maintenance.js";
import type { IndexLifecycle } from "./ports/index-lifecycle.js";
import type { StoryIndex } from "./ports/story-index.js";
import type { StoryStore } from "./ports/story-store.js";
import { AccountService } from "./usecases/accounts/account-service.js";
import { CreditService } from "./usecases/accounts/credit-service.js";
import { IngestService } from "./usecases/ingest/ingest-service.js";
import { StoryClusterer } from "./usecases/stories/story-clusterer.js";
import { systemClock, type Clock } from "./shared/clock.js";
import { toStamp } from "./shared/timestamps.js";
import { WatchRunner } from "./app/watch-runs/watch-runner.js";
import { WebhookDeliverer } from "./app/watch-runs/webhook-deliverer.js";
import type { WatchJobs } from "./workers/watch-scheduler.js";
import { WatchService } from "./usecases/watches/watch-service.js";
import { ConsoleSessions } from "./usecases/console/console-sessions.js";
import { ConsoleUsers } from "./usecases/console/console-users.js";
import { UsageReport } from "./usecases/console/usage-report.js";
import type { ConsoleServices } from "./usecases/console/console-services.js";
import type { WebhookSender } from "./ports/webhook-sender.js";
import { createLogger, type Logger } from "./shared/logger.js";

// The composition root: the one place that picks adapters. Everything else
// sees ports.

/** What every operation needs, plus what the CLI and the server's lifecycle need. */
export interface Container extends OperationDeps {
  /** Built on first use: the publisher-country lookup takes a moment to load and only ingest needs it. */
  ingestService(): Promise<IngestService>;
  /**
   * Moves the story clustering state aside (to `stories.db.set-aside-<stamp>`) before an ingest starts over, when
   * no monthly index holds a readable article: its clusters are of articles no index serves, perhaps clustered by
   * another version, which would refuse the ingest. In the scaled shape the state's tables move to a schema of their
   * own instead. Returns where it went, if there was one.
   */
  setAsideStories(): Promise<string | undefined>;
  /** The watch runner and webhook deliverer `serve` schedules; undefined with watches off. */
  watchJobs: WatchJobs | undefined;
  /** `newsindex reindex`: derived fields for monthly indexes built without them. */
  derived: IndexMaintenance;
  /** `newsindex indices ...`: months ahead, retention, snapshots; undefined in the embedded shape. */
  lifecycle: IndexLifecycle | undefined;
  /**
   * The embedding stage (vectors for what ingest wrote), built on first use; `indexThreads`: native threads a
   * nearest-neighbour build may use (the backfill command gives it the machine), fixed by the first call.
   */
  embeddingStage(options?: { indexThreads?: number }): EmbeddingStage;
  /** The feed's slot ledger, in the control store. */
  feedLedger: SlotLedger;
  /** A follower of the feed at `base` (GDELT's when undefined) for the given kinds. */
  feedFollower(base: string | undefined, kinds: readonly SlotKind[]): FeedFollower;
  /** The lease that keeps one follower among replicas sharing the control store. */
  followerLease(): FollowerLease;
  /** The console's users, sessions and usage chart, in the control store. */
  console: ConsoleServices;
  /**
   * Brings up what the index's reads run on (the embedded index's read threads; nothing for OpenSearch), so a
   * serving process's first request does not pay for it. Resolves once reads are answered.
   */
  startReads(): Promise<void>;
  close(): Promise<void>;
}

export interface ContainerOptions {
  logger?: Logger;
  /** Replaces the network webhook sender (tests resolving names of their own). */
  webhookSender?: WebhookSender;
}

export function createContainer(config: Config, clock: Clock = systemClock, options: ContainerOptions = {}): Container {
  const logger = options.logger ?? createLogger(config.logLevel);
  mkdirSync(config.dataDir, { recursive: true });
  const engine = createIndex(config);
  const index = engine.index;
  const control =
    config.controlStore === "postgres" && config.databaseUrl
      ? new PostgresControlStore(config.databaseUrl, config.databaseSchema)
      : new SqliteControlStore(join(config.dataDir, "control.db"));
  // Only ingest clusters, so only ingest opens the clustering state.
  let storyStore: StoryStore | undefined;
  const storiesIn = storyStateOf(config);
  const accounts = new AccountService(control, clock);
  const credits = new CreditService(control, clock);
  const watchStore = config.watches ? control.watchStore() : undefined;
  const sender =
    options.webhookSender ??
    new PinnedWebhookSender({
      testTrust:
        config.webhookTestHost && config.webhookTestCaFile
          ? { host: config.webhookTestHost, caPem: readFileSync(config.webhookTestCaFile, "utf8") }
          : undefined,
    });
  const watches = watchStore && new WatchService(watchStore, sender, clock);
  let ingest: Promise<IngestService> | undefined;
  const storiesPath = join(config.dataDir, "stories.db");
  const modelDir = config.embeddingModelDir ?? SHIPPED_MODEL_DIR;
  const embedder = new LazyEmbedder(modelDir);
  let stage: EmbeddingStage | undefined;
  const feedClients: FeedClient[] = [];
  const container: Container = {
    index,
    stories: engine.stories,
    derived: engine.derived,
    lifecycle: engine.lifecycle,
    accounts,
    credits,
    clock,
    watches,
    watchJobs: undefined,
    embedder,
    embeddingStage(options = {}) {
      stage ??= engine.embeddingStage(embedder.model, modelDir, options.indexThreads);
      return stage;
    },
    ingestService() {
      ingest ??= PublisherCountryLookup.load().then(async (lookup) => {
        let clusterer: StoryClusterer;
        if (storiesIn.kind === "postgres") {
          const { url, schema } = storiesIn;
          storyStore = await PostgresStoryStore.open(url, schema);
          // Batches after the first are clustered on a thread of their own, over the same state.
          clusterer = new StoryClusterer(storyStore, () => new PostgresClusteringThread(url, schema));
        } else {
          storyStore = new SqliteStoryStore(storiesPath);
          // Batches after the first are clustered on a thread of their own, over the same stories.db.
          clusterer = new StoryClusterer(storyStore, () => new SqliteClusteringThread(storiesPath));
        }
        // Big files are parsed on a thread of their own, beside clustering and the index writer, given a core for it.
        const source = withParseThread(new GkgArticleSource(lookup));
        return new IngestService(source, index, config.ingestBatchSize, clock, {
          clusterer,
          index: engine.stories,
        });
      });
      return ingest;
    },
    feedLedger: control.slotLedger(),
    console: {
      users: new ConsoleUsers(control, clock),
      sessions: new ConsoleSessions(control, clock),
      usage: new UsageReport(control),
    },
    feedFollower(base, kinds) {
      const client = new FeedClient(base);
      feedClients.push(client);
      return new FeedFollower(
        client,
        container.feedLedger,
        () => container.ingestService(),
        clock,
        {
          kinds,
          attempts: config.followAttempts,
          missingAfterMs: config.followMissingAfterSeconds * 1000,
          retryMs: config.followPollSeconds * 1000,
          downloadDir: join(config.dataDir, "feed-downloads"),
        },
        logger,
      );
    },
    followerLease() {
      // Renewed at each slot: it outlasts the slowest slot's ingest.
      const leaseMs = Math.max(3 * config.followPollSeconds * 1000, 300_000);
      return control instanceof PostgresControlStore ? control.followerLease() : control.followerLease(leaseMs);
    },
    async setAsideStories() {
      if (ingest !== undefined) throw new Error("the story clustering state is in use by an ingest");
      if (storiesIn.kind === "postgres") {
        const aside = await PostgresStoryStore.setAside(storiesIn.url, storiesIn.schema, toStamp(clock.now()));
        return aside === undefined ? undefined : `PostgreSQL schema ${aside}`;
      }
      if (!existsSync(storiesPath)) return undefined;
      const aside = `${storiesPath}.set-aside-${toStamp(clock.now())}`;
      for (const suffix of ["", "-wal", "-shm"]) {
        if (existsSync(storiesPath + suffix)) renameSync(storiesPath + suffix, aside + suffix);
      }
      return aside;
    },
    startReads: () => engine.startReads(),
    async close() {
      for (const client of feedClients) await client.close();
      await stage?.close();
      await embedder.close();
      await index.close();
      await storyStore?.close();
      await control.close();
    },
  };
  if (watchStore !== undefined) {
    container.watchJobs = {
      runner: new WatchRunner(watchStore, container, logger),
      deliverer: new WebhookDeliverer(watchStore, sender, accounts, credits, clock, logger),
    };
  }
  return container;
}

/**
 * Where the story clustering state lives. With the embedded index, in stories.db beside it in the data dir: each
 * data dir's index is its own, so are its stories (replicas on a PostgreSQL control store each ingest into their
 * own). In the scaled shape (OpenSearch and the PostgreSQL control store), in the control store's schema, where the
 * next ingest leader finds it and no API replica keeps any. OpenSearch with the SQLite control store is one ingesting
 * data dir's shape: its stories.db stays there (docs/operators.md, "The scaled index: OpenSearch").
 */
function storyStateOf(config: Config): { kind: "sqlite" } | { kind: "postgres"; url: string; schema: string } {
  if (config.index === "opensearch" && config.controlStore === "postgres" && config.databaseUrl !== undefined)
    return { kind: "postgres", url: config.databaseUrl, schema: config.databaseSchema };
  return { kind: "sqlite" };
}

/** The article index of the engine NEWSINDEX_INDEX names, and what only that engine provides. */
interface IndexEngine {
  index: IndexBackend;
  stories: StoryIndex;
  derived: IndexMaintenance;
  lifecycle: IndexLifecycle | undefined;
  /** Container.startReads. */
  startReads(): Promise<void>;
  /** The embedding stage writing vectors into this index; `indexThreads`: native threads a graph build may use. */
  embeddingStage(model: string, modelDir: string, indexThreads: number | undefined): EmbeddingStage;
}

function createIndex(config: Config): IndexEngine {
  switch (config.index) {
    case "sqlite": {
      const index = new SqliteIndexBackend(config.dataDir, {
        annMinMatches: config.annMinMatches,
        ...(config.readThreads === undefined ? {} : { readThreads: { heavy: config.readThreads, light: 1 } }),
      });
      return {
        index,
        stories: index,
        derived: index,
        lifecycle: undefined,
        startReads: () => index.startReads(),
        embeddingStage: (model, modelDir, indexThreads) =>
          new SqliteEmbeddingStage(
            model,
            modelDir,
            ONNX_EMBEDDER_LOADER,
            () => index.months(),
            (month) => index.pathOf(month),
            indexThreads,
            config.embeddingThreads,
          ),
      };
    }
    case "opensearch": {
      // loadConfig refuses opensearch without a URL; this only narrows the type.
      if (config.opensearchUrls === undefined) throw new Error("NEWSINDEX_INDEX=opensearch without NEWSINDEX_OPENSEARCH_URL");
      const client = openSearchClient({ urls: config.opensearchUrls });
      const index = new OpenSearchIndex(client, {
        prefix: config.opensearchPrefix,
        shards: config.opensearchShards,
        replicas: config.opensearchReplicas,
      });
      return {
        index,
        stories: index,
        derived: index,
        lifecycle: new OpenSearchIndexLifecycle(client, index.names, index.indices),
        // Reads are HTTP requests to the cluster: nothing to start.
        startReads: () => Promise.resolve(),
        // The node builds its vector graphs as vectors are written: no native threads to give.
        embeddingStage: (_model, modelDir) =>
          new OpenSearchEmbeddingStage(client, index.indices, new LazyEmbedder(modelDir, config.embeddingThreads)),
      };
    }
  }
}
