import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Config, ConfigOverrides } from "../../src/config/config.js";
import { openSearchClient } from "../../src/adapters/opensearch/client.js";
import { dropPrefix, OPENSEARCH_URL } from "./opensearch.js";

// Which shape a run's test servers take. NEWSINDEX_TEST_SHAPE=scaled (the
// `scaled` Vitest project) builds every server on OpenSearch (an index prefix
// of its own) and PostgreSQL (a schema of its own) unless the test pins the
// index or the control store itself; the default is the embedded shape.
// Everything a scaled server creates is named under the run's id, so the run's
// teardown drops what a killed worker left behind.

export const TEST_SHAPE_ENV = "NEWSINDEX_TEST_SHAPE";
/** Set by test/support/scaled-global-setup.ts: the prefix every name of the run starts with. */
export const TEST_RUN_ENV = "NEWSINDEX_TEST_RUN";
export const DATABASE_URL = process.env.NEWSINDEX_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export function scaledShape(): boolean {
  return process.env[TEST_SHAPE_ENV] === "scaled";
}

/** The run's name prefix: `t<hex>` (a valid start of an index name and of a schema name). */
export function runId(): string {
  return process.env[TEST_RUN_ENV] ?? "tlocal";
}

export interface ScaledResources {
  /** The configuration that puts a server on them (only what the test did not pin). */
  config: ConfigOverrides;
  /** Deletes the indices under the prefix and drops the schema. */
  drop(): Promise<void>;
}

// A restart (a server started on an existing data dir) is the same deployment: it finds the same prefix and schema.
const byDataDir = new Map<string, ScaledResources>();

/** The scaled shape's parts for a server on `dataDir`, made on first use; `pinned` is the test's own config. */
export function scaledResources(dataDir: string, pinned: ConfigOverrides): ScaledResources {
  const known = byDataDir.get(dataDir);
  if (known !== undefined) return known;
  const name = `${runId()}-${randomBytes(5).toString("hex")}`;
  const config: ConfigOverrides = {};
  if (pinned.index === undefined) {
    Object.assign(config, { index: "opensearch", opensearchUrls: OPENSEARCH_URL.split(","), opensearchPrefix: name });
  }
  const schema = `newsindex_${name.replaceAll("-", "_")}`;
  if (pinned.controlStore === undefined) {
    Object.assign(config, { controlStore: "postgres", databaseUrl: DATABASE_URL, databaseSchema: schema });
  }
  const resources: ScaledResources = {
    config,
    async drop() {
      byDataDir.delete(dataDir);
      if (config.index === "opensearch") await dropOpenSearch(name);
      if (config.controlStore === "postgres") await dropSchemas([schema]);
    },
  };
  byDataDir.set(dataDir, resources);
  return resources;
}

async function dropOpenSearch(prefix: string): Promise<void> {
  const client = openSearchClient({ urls: OPENSEARCH_URL.split(",") });
  try {
    await dropPrefix(client, prefix);
  } finally {
    await client.close();
  }
}

/** Drops the schemas a test created (and all they hold). */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  try {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.end();
  }
}

/** Drops every index, template and schema named under the run's id (what servers kept past their test left). */
export async function dropRun(run: string): Promise<void> {
  await dropOpenSearch(run);
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  let schemas: string[];
  try {
    const rows = await admin.query<{ name: string }>(
      "SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE $1",
      [`newsindex_${run}\\_%`],
    );
    schemas = rows.rows.map((row) => row.name);
  } finally {
    await admin.end();
  }
  await dropSchemas(schemas);
}

/** The environment that puts a command-line process on a server's index and control store (the same deployment). */
export function shapeEnv(config: Config): Record<string, string> {
  const env: Record<string, string> = { NEWSINDEX_INDEX: config.index, NEWSINDEX_CONTROL_STORE: config.controlStore };
  if (config.opensearchUrls !== undefined) {
    env.NEWSINDEX_OPENSEARCH_URL = config.opensearchUrls.join(",");
    env.NEWSINDEX_OPENSEARCH_PREFIX = config.opensearchPrefix;
  }
  if (config.databaseUrl !== undefined) {
    env.NEWSINDEX_DATABASE_URL = config.databaseUrl;
    env.NEWSINDEX_DATABASE_SCHEMA = config.databaseSchema;
  }
  return env;
}

/**
 * Credits for resolving one entity_id over a window that cuts into a monthly index (spec: "1 to 2"): the embedded
 * engine checks each spelling against that index in a second query; the scaled shape's one query is bounded by the
 * window already.
 */
export function cutWindowResolutionCredits(): 1 | 2 {
  return scaledShape() ? 1 : 2;
}
