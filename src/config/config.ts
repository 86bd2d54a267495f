import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { OpenSearchConfigSchema, openSearchSettings } from "./opensearch-config.js";

// Configuration is read and validated once, at start. Nothing else reads process.env.

export const ConfigSchema = Type.Object({
  /** Where monthly index files and control.db live. */
  dataDir: Type.String({ minLength: 1 }),
  host: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  logLevel: Type.Union(["fatal", "error", "warn", "info", "debug", "trace", "silent"].map((l) => Type.Literal(l))),
  /**
   * The engine holding articles, stories and vectors: `sqlite` (the embedded shape, one file per month in the data
   * dir) or `opensearch` (the scaled shape).
   */
  index: Type.Union([Type.Literal("sqlite"), Type.Literal("opensearch")]),
  /** Rows per write transaction at ingest. */
  ingestBatchSize: Type.Integer({ minimum: 1, maximum: 100_000 }),
  /**
   * Where tenants, keys and credit counters live: control.db in the data dir, or PostgreSQL shared by replicas. With
   * `opensearch` as well (the scaled shape), the story clustering state lives there too; otherwise in stories.db in
   * the ingesting data dir (container.ts storyStateOf).
   */
  controlStore: Type.Union([Type.Literal("sqlite"), Type.Literal("postgres")]),
  /** PostgreSQL connection URL, with controlStore "postgres". */
  databaseUrl: Type.Optional(Type.String({ minLength: 1 })),
  /** PostgreSQL schema holding the control tables. */
  databaseSchema: Type.String({ pattern: "^[a-z_][a-z0-9_]{0,62}$" }),
  /** The console's listener, on `host`: a second server of the same process ("off": no console). */
  consolePort: Type.Union([Type.Integer({ minimum: 0, maximum: 65535 }), Type.Literal("off")]),
  /**
   * Behind a reverse proxy terminating https: the console reads the client's protocol from X-Forwarded-Proto and
   * marks its session cookie Secure.
   */
  trustProxy: Type.Boolean(),
  /** Operator token for /admin and the console's operator sign-in; the operator API is off without one. */
  adminToken: Type.Optional(Type.String({ minLength: 16 })),
  /** Watches (spec 02): kept in the control store and run by every serving replica; off answers watch calls `unsupported`. */
  watches: Type.Boolean(),
  /**
   * Testing only: a webhook host exempt from the address-class check (it may
   * resolve to loopback) whose certificate is trusted from this CA file. Off
   * unless both are set; never set in production (docs/operators.md).
   */
  webhookTestHost: Type.Optional(Type.String({ minLength: 1 })),
  webhookTestCaFile: Type.Optional(Type.String({ minLength: 1 })),
  /** A sentence-embedding model directory (adapters/onnx/onnx-embedder.ts); the model shipped in models/ by default. */
  embeddingModelDir: Type.Optional(Type.String({ minLength: 1 })),
  /** The server embeds what ingest wrote, behind it (workers/embedding-follower.ts); off leaves it to `newsindex embed`. */
  embedInServer: Type.Boolean(),
  /**
   * Model sessions that embed at once, one thread each (adapters/onnx/parallel-embedder.ts), in the embedding stage
   * and `newsindex embed`: by default as many as the machine has cores, so a backfill takes every core.
   */
  embeddingThreads: Type.Integer({ minimum: 1, maximum: 64 }),
  /**
   * Semantic ranking: a monthly index's nearest-neighbour graph answers when the query's filters can match at least
   * this many of its articles; below, an exact scan of the matches (docs/semantic.md).
   */
  annMinMatches: Type.Integer({ minimum: 0 }),
  /**
   * Index reads that rank, count facets or scan stories at once (the heavy lane of the read pool): one thread each.
   * Browses and documents have a thread of their own beside them. Fewer than the cores keeps a core for the event
   * loop and the light lane, so cheap calls stay quick under heavy load (docs/operators.md, "Read threads"). Unset:
   * the index's default (adapters/sqlite/sqlite-index-backend.ts).
   */
  readThreads: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  /**
   * On SIGTERM or SIGINT, how long a server with a console listener fails readiness (`GET /ready`) while still
   * answering, before it stops taking connections: long enough for a load balancer checking every 2 s to take it out
   * after three failed checks. 0 for a server no balancer checks: it stops at once.
   */
  drainSeconds: Type.Integer({ minimum: 0, maximum: 600 }),
  /** The live follower (`serve --follow`) reads the feed's newest lists this often. */
  followPollSeconds: Type.Integer({ minimum: 1, maximum: 3600 }),
  /** Tries of a slot whose file does not match its listed size and md5 (or cannot be read) before it is `failed`. */
  followAttempts: Type.Integer({ minimum: 1, maximum: 100 }),
  /** How long a listed file may answer 404 before the live follower records its slot `missing`. */
  followMissingAfterSeconds: Type.Integer({ minimum: 0 }),
  ...OpenSearchConfigSchema,
});

export type Config = Static<typeof ConfigSchema>;

export type ConfigOverrides = Partial<Config>;

export class ConfigError extends Error {}

/** Builds the config from the environment, then command-line overrides. Throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv, overrides: ConfigOverrides = {}): Config {
  const openSearch = openSearchSettings(env);
  const raw = {
    dataDir: overrides.dataDir ?? env.NEWSINDEX_DATA_DIR ?? "./var",
    host: overrides.host ?? env.HOST ?? "127.0.0.1",
    port: overrides.port ?? numberOrRaw(env.PORT) ?? 8080,
    logLevel: overrides.logLevel ?? env.LOG_LEVEL ?? "info",
    index: overrides.index ?? env.NEWSINDEX_INDEX ?? "sqlite",
    ingestBatchSize: overrides.ingestBatchSize ?? numberOrRaw(env.NEWSINDEX_INGEST_BATCH) ?? 2000,
    controlStore: overrides.controlStore ?? env.NEWSINDEX_CONTROL_STORE ?? "sqlite",
    databaseSchema: overrides.databaseSchema ?? env.NEWSINDEX_DATABASE_SCHEMA ?? "newsindex",
    ...optional("databaseUrl", overrides.databaseUrl ?? env.NEWSINDEX_DATABASE_URL),
    ...optional("adminToken", overrides.adminToken ?? env.NEWSINDEX_ADMIN_TOKEN),
    watches: overrides.watches ?? onOff(env.NEWSINDEX_WATCHES) ?? true,
    consolePort: overrides.consolePort ?? consolePort(env.NEWSINDEX_CONSOLE_PORT) ?? 8081,
    trustProxy: overrides.trustProxy ?? onOff(env.NEWSINDEX_TRUST_PROXY) ?? false,
    ...optional("webhookTestHost", overrides.webhookTestHost ?? env.NEWSINDEX_WEBHOOK_TEST_HOST),
    ...optional("webhookTestCaFile", overrides.webhookTestCaFile ?? env.NEWSINDEX_WEBHOOK_TEST_CA_FILE),
    ...optional("embeddingModelDir", overrides.embeddingModelDir ?? env.NEWSINDEX_EMBEDDING_MODEL_DIR),
    ...optional("readThreads", overrides.readThreads ?? numberOrRaw(env.NEWSINDEX_READ_THREADS)),
    embedInServer: overrides.embedInServer ?? env.NEWSINDEX_EMBED_IN_SERVER !== "off",
    embeddingThreads: overrides.embeddingThreads ?? numberOrRaw(env.NEWSINDEX_EMBEDDING_THREADS) ?? availableParallelism(),
    annMinMatches: overrides.annMinMatches ?? numberOrRaw(env.NEWSINDEX_ANN_MIN_MATCHES) ?? 20_000,
    drainSeconds: overrides.drainSeconds ?? numberOrRaw(env.NEWSINDEX_DRAIN_SECONDS) ?? 7,
    followPollSeconds: overrides.followPollSeconds ?? numberOrRaw(env.NEWSINDEX_FOLLOW_POLL_SECONDS) ?? 60,
    followAttempts: overrides.followAttempts ?? numberOrRaw(env.NEWSINDEX_FOLLOW_ATTEMPTS) ?? 3,
    followMissingAfterSeconds:
      overrides.followMissingAfterSeconds ?? numberOrRaw(env.NEWSINDEX_FOLLOW_MISSING_AFTER_SECONDS) ?? 3600,
    ...optional("opensearchUrls", overrides.opensearchUrls ?? openSearch.opensearchUrls),
    opensearchPrefix: overrides.opensearchPrefix ?? openSearch.opensearchPrefix,
    opensearchShards: overrides.opensearchShards ?? openSearch.opensearchShards,
    opensearchReplicas: overrides.opensearchReplicas ?? openSearch.opensearchReplicas,
  };
  if (!Value.Check(ConfigSchema, raw)) {
    const problems = [...Value.Errors(ConfigSchema, raw)].map((e) => `${e.path.slice(1) || "config"}: ${e.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  if (raw.controlStore === "postgres" && !raw.databaseUrl) {
    throw new ConfigError("Invalid configuration: NEWSINDEX_CONTROL_STORE=postgres needs NEWSINDEX_DATABASE_URL");
  }
  if (raw.index === "opensearch" && raw.opensearchUrls === undefined) {
    throw new ConfigError("Invalid configuration: NEWSINDEX_INDEX=opensearch needs NEWSINDEX_OPENSEARCH_URL");
  }
  if ((raw.webhookTestHost === undefined) !== (raw.webhookTestCaFile === undefined)) {
    throw new ConfigError(
      "Invalid configuration: NEWSINDEX_WEBHOOK_TEST_HOST and NEWSINDEX_WEBHOOK_TEST_CA_FILE (testing only) are set together or not at all",
    );
  }
  if (raw.embeddingModelDir !== undefined && !existsSync(join(raw.embeddingModelDir, "model.onnx"))) {
    throw new ConfigError(`Invalid configuration: NEWSINDEX_EMBEDDING_MODEL_DIR ${raw.embeddingModelDir} holds no model.onnx`);
  }
  return {
    ...raw,
    dataDir: resolve(raw.dataDir),
    ...(raw.embeddingModelDir === undefined ? {} : { embeddingModelDir: resolve(raw.embeddingModelDir) }),
  };
}

/** The setting when given (an empty variable is not given), else nothing: the key stays absent. */
function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined || value === "" ? {} : ({ [key]: value } as Record<K, V>);
}

/** `on`/`off` (also true/false, 1/0); anything else is kept for the schema to refuse. */
function onOff(value: string | undefined): boolean | string | undefined {
  if (value === undefined || value === "") return undefined;
  const v = value.toLowerCase();
  if (["on", "true", "1"].includes(v)) return true;
  if (["off", "false", "0"].includes(v)) return false;
  return value;
}

function consolePort(value: string | undefined): number | string | undefined {
  return value?.toLowerCase() === "off" ? "off" : numberOrRaw(value);
}

function numberOrRaw(value: string | undefined): number | string | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}
