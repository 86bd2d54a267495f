#!/usr/bin/env node
import { readdirSync, realpathSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import cliProgress from "cli-progress";
import { ConfigError, loadConfig, type ConfigOverrides } from "../config/config.js";
import { createContainer, type Container } from "../container.js";
import { serve, type Served } from "../serve.js";
import { catchUpEmbeddings, type CatchUpProgress } from "../usecases/embedding/embedding-catch-up.js";
import type { IngestSummary } from "../usecases/ingest/ingest-service.js";
import { ApiError } from "../shared/api-error.js";
import { replayClock, systemClock, type Clock } from "../shared/clock.js";
import { parseStamp } from "../shared/timestamps.js";
import { createLogger } from "../shared/logger.js";
import { keysCommand, tenantsCommand, usersCommand } from "./account-commands.js";
import { PROCESS_IO, type CliIo } from "./cli-io.js";
import { exportCommand } from "./export-command.js";
import { feedCommand } from "./feed-command.js";
import { feedBase, followCommand, followedKinds } from "./follow-command.js";
import { indicesCommand } from "./indices-command.js";
import { USAGE, UsageError } from "./usage.js";

// newsindex ingest | embed | serve | start | keys — the command-line contract.

/** The GKG sample shipped with the package. */
const SAMPLE_DIR = new URL("../../data/gkg/", import.meta.url).pathname;

/**
 * Runs one command line: its exit code, or -1 while `serve`/`start` keep serving (a signal, or `io.serving`'s stop,
 * ends them). Bad usage is 2, a refused or failed command 1, with the reason on `io.err`.
 */
export async function run(argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    const badArgs = error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS");
    if (error instanceof UsageError || error instanceof ConfigError || badArgs) {
      io.err(`newsindex: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`newsindex: ${error instanceof ApiError ? error.detail : error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** Where the console is and how the operator signs in: its token when this run made one. */
function reportConsole(io: CliIo, served: Served): void {
  if (served.console === undefined) return;
  const { url, generatedToken } = served.console;
  io.err(
    generatedToken === undefined
      ? `Console: ${url} (operator: sign in with NEWSINDEX_ADMIN_TOKEN; tenant users with email and password)`
      : `Console: ${url} (operator token for this run: ${generatedToken}; set NEWSINDEX_ADMIN_TOKEN to keep one)`,
  );
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  // Its options are the API's parameters, parsed by the command itself.
  if (command === "export") return exportCommand(rest);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      "data-dir": { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      tenant: { type: "string" },
      email: { type: "string" },
      plan: { type: "string" },
      "ttl-hours": { type: "string" },
      "grace-minutes": { type: "string" },
      now: { type: "string" },
      batch: { type: "string" },
      json: { type: "boolean", default: false },
      follow: { type: "boolean", default: false },
      "no-translation": { type: "boolean", default: false },
      since: { type: "string" },
      until: { type: "string" },
      months: { type: "string" },
      "keep-months": { type: "string" },
      "dry-run": { type: "boolean", default: false },
      repo: { type: "string" },
      name: { type: "string" },
      month: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help || command === undefined || command === "help") {
    io.out(USAGE);
    return 0;
  }
  const overrides: ConfigOverrides = {};
  if (values["data-dir"] !== undefined) overrides.dataDir = values["data-dir"];
  if (values.host !== undefined) overrides.host = values.host;
  if (values.port !== undefined) overrides.port = Number(values.port);
  const config = loadConfig(io.env, overrides);
  const logger = createLogger(config.logLevel);

  switch (command) {
    case "ingest": {
      if (positionals.length === 0) throw new UsageError("ingest needs at least one FILE");
      const container = createContainer(config);
      try {
        reportIngest(io, await ingestWithProgress(io, container, positionals));
      } finally {
        await container.close();
      }
      return 0;
    }
    case "embed": {
      const container = createContainer(config);
      try {
        await embedWithProgress(io, container);
      } finally {
        await container.close();
      }
      return 0;
    }
    case "serve": {
      const follow = values.follow ? { base: feedBase(positionals), kinds: followedKinds(values["no-translation"]) } : undefined;
      const served = await serve(createContainer(config, clockOf(values.now), { logger }), config, logger, follow);
      if (values.now !== undefined) io.err(`NewsIndex serving as of ${values.now} UTC (replay clock)`);
      reportConsole(io, served);
      io.serving?.(served.stop);
      return -1;
    }
    case "start": {
      const container = createContainer(config, systemClock, { logger });
      if ((await container.index.count()) === 0) {
        const files = readdirSync(SAMPLE_DIR)
          .filter((f) => f.endsWith(".gz"))
          .map((f) => join(SAMPLE_DIR, f));
        io.err(`First start: ingesting the bundled GDELT sample (${files.length} files) into ${config.dataDir}`);
        const aside = await container.setAsideStories();
        if (aside !== undefined) io.err(`No monthly index is readable by this build: story clusters moved aside to ${aside}`);
        reportIngest(io, await ingestWithProgress(io, container, files));
      }
      if ((await container.accounts.tenantCount()) === 0) {
        const issued = await container.accounts.issueKey("demo", "archive");
        io.out(`Demo tenant "demo" (plan archive). Its API key, shown this once:\n\n  ${issued.key}\n`);
        io.out(`Try: curl -H "x-api-key: ${issued.key}" "http://${config.host}:${config.port}/search?q=shooting&limit=3"\n`);
      }
      const served = await serve(container, config, logger);
      io.err(`NewsIndex serving ${config.dataDir} on ${served.url}`);
      reportConsole(io, served);
      io.serving?.(served.stop);
      return -1;
    }
    case "reindex": {
      const batch = values.batch === undefined ? undefined : Number(values.batch);
      if (batch !== undefined && !(Number.isInteger(batch) && batch >= 1))
        throw new UsageError("--batch must be a positive integer");
      const container = createContainer(config);
      try {
        await reindexWithProgress(io, container, batch);
      } finally {
        await container.close();
      }
      return 0;
    }
    case "follow":
    case "feed": {
      const container = createContainer(config, systemClock, { logger });
      try {
        return command === "follow"
          ? await followCommand(io, container, positionals, values)
          : await feedCommand(io, container, values);
      } finally {
        await container.close();
      }
    }
    case "indices": {
      const container = createContainer(config, systemClock, { logger });
      try {
        return await indicesCommand(container, positionals, values, io);
      } finally {
        await container.close();
      }
    }
    case "keys":
    case "tenants": {
      const container = createContainer(config);
      try {
        return await (command === "keys" ? keysCommand : tenantsCommand)(container.accounts, positionals, values, io);
      } finally {
        await container.close();
      }
    }
    case "users": {
      const container = createContainer(config);
      try {
        return await usersCommand(container.console.users, positionals, values, io);
      } finally {
        await container.close();
      }
    }
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

/** `--now YYYYMMDDHHMMSS`: the service behaves as of that instant, and its clock runs on from there. */
function clockOf(now: string | undefined): Clock {
  if (now === undefined) return systemClock;
  const startMs = parseStamp(now);
  if (startMs === undefined) throw new UsageError(`--now takes a 14-digit UTC time YYYYMMDDHHMMSS; got ${now}`);
  return replayClock(startMs);
}

async function ingestWithProgress(io: CliIo, container: Container, files: string[]): Promise<IngestSummary> {
  const service = await container.ingestService();
  if (io.progress === undefined) return service.ingest(files);
  const bar = new cliProgress.SingleBar(
    { format: "ingest [{bar}] {value}/{total} files | {records} records | {file}", stream: io.progress, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(files.length, 0, { records: 0, file: "" });
  let done = 0;
  let current = "";
  try {
    return await service.ingest(files, ({ file, records }) => {
      if (file !== current) {
        if (current !== "") done++;
        current = file;
      }
      bar.update(done, { records, file: file.split("/").pop() });
    });
  } finally {
    bar.update(files.length);
    bar.stop();
  }
}

/** Derived fields for the monthly indexes built without them; a bar per month on a terminal, a line per month elsewhere. */
async function reindexWithProgress(io: CliIo, container: Container, batch: number | undefined): Promise<void> {
  const bar = io.progress
    ? new cliProgress.SingleBar(
        { format: "reindex {month} [{bar}] {value}/{total} articles", stream: io.progress, hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let current = "";
  try {
    const summary = await container.derived.rebuildDerived({
      ...(batch === undefined ? {} : { batch }),
      onProgress: ({ month, done, total }) => {
        if (month !== current) {
          bar?.stop();
          current = month;
          if (bar) bar.start(total, done, { month });
          else io.err(`reindex ${month}: ${total} articles${done > 0 ? `, resuming after ${done}` : ""}`);
        } else bar?.update(done, { month });
      },
    });
    bar?.stop();
    for (const s of summary.skipped) io.err(`skipped ${s.month}: ${s.reason}`);
    io.out(
      summary.months.length === 0
        ? "every monthly index is up to date"
        : `reindexed ${summary.articles} articles in ${summary.months.length} monthly indexes (${summary.months.join(", ")})`,
    );
  } finally {
    bar?.stop();
  }
}

/**
 * `newsindex embed`: the backfill, then each index's nearest-neighbour graph (built with every core). Killed part
 * way, it resumes where the last stored step ended.
 */
async function embedWithProgress(io: CliIo, container: Container): Promise<void> {
  const stage = container.embeddingStage({ indexThreads: availableParallelism() });
  const bar = io.progress
    ? new cliProgress.SingleBar(
        {
          format: "embed [{bar}] {value}/{total} articles | {rate} articles/s | index {month}",
          stream: io.progress,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const started = Date.now();
  let last: CatchUpProgress | undefined;
  const rate = (done: number): number => Math.round(done / Math.max(0.001, (Date.now() - started) / 1000));
  const embedded = await catchUpEmbeddings(stage, {
    onProgress(progress) {
      if (last === undefined) bar?.start(progress.total, 0, { rate: 0, month: progress.month });
      last = progress;
      bar?.setTotal(progress.total);
      bar?.update(progress.done, { rate: rate(progress.done), month: progress.month });
    },
  });
  bar?.stop();
  const seconds = (Date.now() - started) / 1000;
  io.out(`embedded ${embedded} articles with ${stage.model} in ${seconds.toFixed(2)} s, ${rate(embedded)} articles/s`);
}

function reportIngest(io: CliIo, summary: IngestSummary): void {
  for (const s of summary.skippedLines) io.err(`skipped ${s.file}:${s.line}: ${s.reason}`);
  if (summary.skipped > summary.skippedLines.length) {
    io.err(`(${summary.skipped - summary.skippedLines.length} more skipped lines not listed)`);
  }
  io.out(
    `ingested ${summary.records} records (${summary.inserted} new, ${summary.unchanged} unchanged), ` +
      `skipped ${summary.skipped}, ${summary.seconds.toFixed(2)} s, ${summary.recordsPerSecond} records/s`,
  );
}

/** Run as the `newsindex` command (the npm bin links here), not when imported. */
function isEntry(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === fileURLToPath(import.meta.url);
  } catch (error) {
    // A script path that does not resolve (node -e, a REPL) is not this file.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

if (isEntry()) {
  void run(process.argv.slice(2)).then((code) => {
    if (code >= 0) process.exitCode = code;
  });
}
