import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import type { Config } from "./config/config.js";
import type { Container } from "./container.js";
import { buildApp } from "./http/app.js";
import { closeApp } from "./http/close-app.js";
import { buildConsoleApp } from "./http/console/console-app.js";
import { registerReadiness } from "./http/readiness.js";
import { OPERATIONS } from "./app/registry.js";
import { startWatchScheduler } from "./workers/watch-scheduler.js";
import { EmbeddingFollower } from "./workers/embedding-follower.js";
import type { SlotKind } from "./domain/feed-slots.js";
import { FeedLoop } from "./workers/feed-loop.js";
import type { Logger } from "./shared/logger.js";

/** Folder of the public docs, relative to this module in both src/ and dist/. */
export const DOCS_DIR = new URL("../docs/", import.meta.url).pathname;

/** How long a shutdown waits for open connections before cutting them. */
const SHUTDOWN_GRACE_MS = 10_000;

/** How often a running server looks for credit holds a crashed replica left on the shared store. */
const ABANDONED_HOLDS_EVERY_MS = 60_000;

/** `serve --follow`: the feed to follow (GDELT's when `base` is undefined) and which kinds. */
export interface FollowOptions {
  base: string | undefined;
  kinds: readonly SlotKind[];
}

/** A listening server: `stop` closes it and everything it runs, as a signal does, without ending the process. */
export interface Served {
  app: FastifyInstance;
  /** The API's address. */
  url: string;
  /** The console, unless NEWSINDEX_CONSOLE_PORT=off. */
  console: ServedConsole | undefined;
  stop(): Promise<void>;
}

export interface ServedConsole {
  app: FastifyInstance;
  url: string;
  /** The operator token made for this run when none is configured: the console's operator signs in with it. */
  generatedToken: string | undefined;
}

/** Builds the HTTP app on a container and starts listening; closes everything and exits on SIGINT/SIGTERM. */
export async function serve(container: Container, config: Config, logger: Logger, follow?: FollowOptions): Promise<Served> {
  const app = await buildApp({
    operations: OPERATIONS,
    deps: container,
    logger,
    docsDir: DOCS_DIR,
    adminToken: config.adminToken,
  });
  // Holds a crashed process left (calls it never answered) are given back before this one answers: never charged.
  await releaseAbandonedHolds(container, logger);
  // The read threads are up before the first request, which would otherwise wait for them (and pay their memory).
  await container.startReads();
  const sweeper = setInterval(() => void releaseAbandonedHolds(container, logger), ABANDONED_HOLDS_EVERY_MS).unref();
  await app.listen({ host: config.host, port: config.port });
  const url = addressOf(app, config.host);
  let draining = false;
  // The console: a second listener of this process, so the API's origin keeps only the spec's key-free paths.
  // It also answers GET /ready for a load balancer (http/readiness.ts).
  const consoleServer =
    config.consolePort === "off" ? undefined : await serveConsole(container, config, logger, url, () => draining);
  // Due watches and webhook deliveries, beside the HTTP server; every replica runs it (leases keep runs single).
  const scheduler = container.watchJobs && startWatchScheduler(container.watchJobs, logger);
  // Embedding follows ingest on a thread of its own, so semantic search catches up behind keyword search.
  const follower = config.embedInServer ? new EmbeddingFollower(container.embeddingStage(), logger) : undefined;
  follower?.start();
  // The feed, followed by whichever replica holds the follower lease.
  const feed =
    follow &&
    new FeedLoop(
      container.feedFollower(follow.base, follow.kinds),
      container.followerLease(),
      config.followPollSeconds * 1000,
      logger,
    );
  feed?.start();
  // The work beside the API stops as soon as shutdown starts, not after the drain: the follower lease passes to a
  // replica that stays, and no watch or delivery is claimed by a process about to exit (the one under way finishes).
  let background: Promise<void> | undefined;
  const stopBackground = (): Promise<void> =>
    (background ??= (async () => {
      await feed?.stop();
      await scheduler?.stop();
      await follower?.stop();
    })());
  const stop = async (): Promise<void> => {
    process.off("SIGINT", shutdown);
    process.off("SIGTERM", shutdown);
    clearInterval(sweeper);
    draining = true;
    const stoppingBackground = stopBackground();
    // The API first: the calls under way are answered (drained) while readiness keeps saying "draining".
    await closeApp(app, SHUTDOWN_GRACE_MS);
    if (consoleServer) await closeApp(consoleServer.app, SHUTDOWN_GRACE_MS);
    await stoppingBackground;
    await container.close();
  };
  function shutdown(signal: string): void {
    // Readiness fails first, and calls keep being answered until the balancer has seen it.
    draining = true;
    void stopBackground();
    // Readiness lives on the console listener: without it no balancer can be told, so there is nothing to wait for.
    const notice = consoleServer === undefined ? 0 : config.drainSeconds * 1000;
    logger.info({ signal, drain_ms: notice }, "shutting down: draining");
    void new Promise((resolve) => setTimeout(resolve, notice)).then(stop).finally(() => process.exit(0));
  }
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  return { app, url, console: consoleServer, stop };
}

async function serveConsole(
  container: Container,
  config: Config,
  logger: Logger,
  apiUrl: string,
  draining: () => boolean,
): Promise<ServedConsole> {
  const generatedToken = config.adminToken === undefined ? randomBytes(18).toString("base64url") : undefined;
  const app = await buildConsoleApp(
    {
      deps: container,
      operations: OPERATIONS,
      operatorToken: config.adminToken ?? generatedToken,
      trustProxy: config.trustProxy,
      apiUrl,
    },
    logger,
  );
  registerReadiness(app, {
    draining,
    checks: [
      { name: "index", probe: () => container.index.count() },
      { name: "control_store", probe: () => container.accounts.tenantCount() },
    ],
  });
  await app.listen({ host: config.host, port: config.consolePort === "off" ? 0 : config.consolePort });
  return { app, url: addressOf(app, config.host), generatedToken };
}

/** The http address a listening server answers on (its port when 0 was asked). */
function addressOf(app: FastifyInstance, host: string): string {
  const { port } = app.server.address() as AddressInfo;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

async function releaseAbandonedHolds(container: Container, logger: Logger): Promise<void> {
  try {
    const released = await container.credits.releaseAbandonedHolds();
    if (released > 0) logger.info({ released }, "released credit holds of calls a stopped process never answered");
  } catch (error) {
    logger.warn({ err: error }, "could not release abandoned credit holds");
  }
}
