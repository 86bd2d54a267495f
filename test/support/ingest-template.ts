import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, type ConfigOverrides } from "../../src/config/config.js";
import { createContainer } from "../../src/container.js";
import { catchUpEmbeddings } from "../../src/usecases/embedding/embedding-catch-up.js";
import type { IngestSummary } from "../../src/usecases/ingest/ingest-service.js";

// Ingesting the sample is most of a test server's start. The first server of a
// run to ask for given files ingests them (and embeds them, when asked) into a
// template data dir under the run's template root; every later server with the
// same request starts from a copy. Tests still see what the real pipeline wrote.
//
// A template stands for exactly what decides the data dir's content:
// - the files, by path and content (a file a test writes is its own template);
// - whether the articles are embedded;
// - every configuration setting, except those named below that only serve,
//   bill or route calls (a setting added later is part of the key until
//   it is listed here).
// The clock only times the ingest: a copy's summary is timed on the caller's
// clock (a frozen test clock reads 0 s, as a real ingest under it would).

/** The environment variable naming the run's template root; set by test/support/global-setup.ts. */
export const TEMPLATE_ROOT_ENV = "NEWSINDEX_TEST_TEMPLATES";

/** Settings that never change what ingest or the embedding stage writes into the data dir. */
const NOT_WRITTEN: ReadonlySet<keyof ConfigOverrides> = new Set<keyof ConfigOverrides>([
  "dataDir",
  "host",
  "port",
  "logLevel",
  "adminToken",
  "controlStore",
  "databaseUrl",
  "databaseSchema",
  "watches",
  "webhookTestHost",
  "webhookTestCaFile",
  "embedInServer",
  "annMinMatches",
  "readThreads",
]);

export interface TemplateRequest {
  files: readonly string[];
  embed: boolean;
  config: ConfigOverrides;
}

/** The template root of this run, or undefined outside the test runner (the fuzz CLI): then every server ingests. */
export function templateRoot(): string | undefined {
  return process.env[TEMPLATE_ROOT_ENV];
}

/**
 * Fills `dataDir` (empty or missing) with what ingesting `request` writes, from a template built on first use, and
 * returns that ingest's summary (untimed).
 */
export async function fillFromTemplate(root: string, request: TemplateRequest, dataDir: string): Promise<IngestSummary> {
  const dir = join(root, templateKey(request));
  const data = join(dir, "data");
  const summaryFile = join(dir, "summary.json");
  await buildOnce(dir, async () => {
    const building = join(dir, `building-${process.pid}`);
    rmSync(building, { recursive: true, force: true });
    const config = loadConfig({}, { ...request.config, dataDir: building, logLevel: "silent" });
    const container = createContainer(config);
    try {
      const summary = await (await container.ingestService()).ingest(request.files);
      if (request.embed) await catchUpEmbeddings(container.embeddingStage());
      writeFileSync(join(dir, `summary-${process.pid}.json`), JSON.stringify(summary));
    } finally {
      await container.close();
    }
    rmSync(data, { recursive: true, force: true });
    renameSync(building, data);
    // Last: the summary's presence is what tells the other processes the template is whole.
    renameSync(join(dir, `summary-${process.pid}.json`), summaryFile);
  });
  mkdirSync(dataDir, { recursive: true });
  cpSync(data, dataDir, { recursive: true });
  return JSON.parse(readFileSync(summaryFile, "utf8")) as IngestSummary;
}

/** True when `dataDir` holds nothing yet, so a template copy is what ingesting into it would make. */
export function isEmptyDir(dataDir: string): boolean {
  return !existsSync(dataDir) || readdirSync(dataDir).length === 0;
}

function templateKey(request: TemplateRequest): string {
  const hash = createHash("sha256");
  for (const file of request.files) {
    hash.update(`file\0${file}\0`);
    hash.update(createHash("sha256").update(readFileSync(file)).digest("hex"));
  }
  hash.update(`\0embed\0${request.embed}\0`);
  const written = Object.entries(request.config)
    .filter(([name, value]) => value !== undefined && !NOT_WRITTEN.has(name as keyof ConfigOverrides))
    .sort(([a], [b]) => a.localeCompare(b));
  hash.update(JSON.stringify(written));
  return hash.digest("hex").slice(0, 24);
}

/**
 * Runs `build` once across the run's test processes: the first to create `dir/lock` builds, the others wait for
 * `dir/summary.json`. A builder that died (a killed worker) leaves its lock to the next asker.
 */
async function buildOnce(dir: string, build: () => Promise<void>): Promise<void> {
  const done = join(dir, "summary.json");
  const lock = join(dir, "lock");
  mkdirSync(dir, { recursive: true });
  for (;;) {
    if (existsSync(done)) return;
    try {
      writeFileSync(lock, String(process.pid), { flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (!builderAlive(lock)) rmSync(lock, { force: true });
      else await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      await build();
      return;
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

function builderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lock, "utf8"));
  } catch (error) {
    // Released between our look and this read: whoever asks next finds the summary or takes the lock.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
  // An empty file: the lock's writer has not written its pid yet.
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
