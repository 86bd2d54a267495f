import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { loadConfig, type Config, type ConfigOverrides } from "../../src/config/config.js";
import { createContainer, type Container, type ContainerOptions } from "../../src/container.js";
import type { PlanId } from "../../src/domain/plans.js";
import { buildApp } from "../../src/http/app.js";
import { closeApp } from "../../src/http/close-app.js";
import { DOCS_DIR } from "../../src/serve.js";
import type { Operation } from "../../src/app/operation.js";
import { OPERATIONS } from "../../src/app/registry.js";
import { catchUpEmbeddings } from "../../src/usecases/embedding/embedding-catch-up.js";
import type { IngestSummary } from "../../src/usecases/ingest/ingest-service.js";
import { systemClock, type Clock } from "../../src/shared/clock.js";
import { createLogger, type Logger } from "../../src/shared/logger.js";
import { fillFromTemplate, isEmptyDir, templateRoot } from "./ingest-template.js";
import { scaledResources, scaledShape } from "./test-shape.js";

// A real server on loopback: a temporary data dir, the real GKG sample
// ingested through the real pipeline (once per run for a given request, then
// copied: see ingest-template.ts), a key per requested plan, a free port.

export const SAMPLE = new URL("../../data/gkg/", import.meta.url).pathname;
export const SAMPLE_FILES = {
  batch2023: join(SAMPLE, "20230702153000.gkg.csv.gz"),
  spark: join(SAMPLE, "spark-gdelt-test_gkg.csv.gz"),
  translingual: join(SAMPLE, "spark-gdelt-test_gkgT.translation.csv.gz"),
  batch2016: join(SAMPLE, "20160101020000.gkg.csv.gz"),
  bigquery: join(SAMPLE, "bq-extract-20200222_sample.csv.gz"),
};

export interface TestServer {
  url: string;
  dataDir: string;
  /** The server's configuration: which shape it is (the index, the control store) and where its parts are. */
  config: Config;
  container: Container;
  app: FastifyInstance;
  ingest: IngestSummary;
  /** A key on the archive plan (full history), on a tenant of its own. */
  key: string;
  keys: Partial<Record<PlanId, string>>;
  get(path: string, key?: string | null, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  files?: string[];
  plans?: PlanId[];
  clock?: Clock;
  adminToken?: string;
  /** The endpoints to serve; the registry by default (MCP tests add operations of their own). */
  operations?: readonly Operation[];
  /** Configuration beyond the temporary data dir and port, e.g. a PostgreSQL control store. */
  config?: ConfigOverrides;
  /** The server's logger; silent by default (security tests read what it writes). */
  logger?: Logger;
  /** Serve an existing data dir (a restart): kept on close; `files` are ingested into it as usual. */
  dataDir?: string;
  /** The container's options beyond the clock (a webhook sender with a resolver of the test's own). */
  container?: ContainerOptions;
  /** Embeds every ingested article (the embedding stage run to the end) before serving. */
  embed?: boolean;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "newsindex-test-"));
  // The scaled run: OpenSearch and PostgreSQL of the server's own, for what the test did not pin (test-shape.ts).
  const scaled = scaledShape() ? scaledResources(dataDir, options.config ?? {}) : undefined;
  const config = loadConfig({}, { ...scaled?.config, ...options.config, dataDir, port: 0, host: "127.0.0.1", logLevel: "silent" });
  const files = options.files ?? Object.values(SAMPLE_FILES);
  const root = templateRoot();
  // A copy of the run's template is what this ingest would write, when the data dir starts empty (see ingest-template.ts).
  // (A template is a data dir: an index kept elsewhere, in OpenSearch, is written by this ingest itself.)
  const fromTemplate =
    root !== undefined &&
    files.length > 0 &&
    config.index !== "opensearch" &&
    (options.dataDir === undefined || isEmptyDir(dataDir));
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const copied = fromTemplate
    ? await fillFromTemplate(root, { files, embed: options.embed === true, config: options.config ?? {} }, dataDir)
    : undefined;
  const container = createContainer(config, options.clock, options.container);
  const ingest = copied ? timed(copied, (clock.now() - started) / 1000) : await (await container.ingestService()).ingest(files);
  if (options.embed && !fromTemplate) await catchUpEmbeddings(container.embeddingStage());
  const keys: Partial<Record<PlanId, string>> = {};
  for (const plan of new Set<PlanId>(["archive", ...(options.plans ?? [])])) {
    keys[plan] = (await container.accounts.issueKey(`${plan}-tenant-${randomUUID()}`, plan)).key;
  }
  const app = await buildApp({
    operations: options.operations ?? OPERATIONS,
    deps: container,
    logger: options.logger ?? createLogger("silent"),
    docsDir: DOCS_DIR,
    adminToken: options.adminToken,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("server did not bind a TCP port");
  const url = `http://127.0.0.1:${address.port}`;
  const key = keys.archive as string;
  return {
    url,
    dataDir,
    config,
    container,
    app,
    ingest,
    key,
    keys,
    get(path, useKey = key, headers = {}) {
      return fetch(url + path, { headers: useKey === null ? headers : { "x-api-key": useKey, ...headers } });
    },
    async close() {
      await closeApp(app, 1_000);
      await container.close();
      // A data dir the test keeps is served again (a restart) on the same index and schema; the run's teardown drops them.
      if (options.dataDir === undefined) {
        rmSync(dataDir, { recursive: true, force: true });
        await scaled?.drop();
      }
    },
  };
}

/** A copied ingest's summary, timed as the ingest service times one. */
function timed(summary: IngestSummary, seconds: number): IngestSummary {
  return { ...summary, seconds, recordsPerSecond: seconds > 0 ? Math.round(summary.records / seconds) : summary.records };
}

/** Parses a JSON body, failing the test with the raw text when it is not JSON. */
export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (status ${response.status}): ${text.slice(0, 300)}`);
  }
}
