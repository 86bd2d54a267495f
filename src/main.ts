import type { FastifyInstance } from "fastify";
import type { Config } from "./config/config.js";
import type { Container } from "./container.js";
import { buildApp } from "./http/app.js";
import { closeApp } from "./http/close-app.js";
import { OPERATIONS } from "./operations/registry.js";
import { startWatchScheduler } from "./jobs/watch-scheduler.js";
import { EmbeddingFollower } from "./services/embedding/embedding-follower.js";
import type { SlotKind } from "./domain/feed-slots.js";
import { FeedLoop } from "./services/feed/feed-loop.js";
import type { Logger } from "./shared/logger.js";

/** Folder of the public docs, relative to this module in both src/ and dist/. */
export const DOCS_DIR = new URL("../docs/", import.meta.url).pathname;

/** How long a shutdown waits for open connections before cutting them. */
const SHUTDOWN_GRACE_MS = 10_000;

/** `serve --follow`: the feed to follow (GDELT's when `base` is undefined) and which kinds. */
export interface FollowOptions {
  base: string | undefined;
  kinds: readonly SlotKind[];
}

/** Builds the HTTP app on a container and starts listening; closes everything on SIGINT/SIGTERM. */
export async function serve(
  container: Container,
  config: Config,
  logger: Logger,
  follow?: FollowOptions,
): Promise<FastifyInstance> {
  const app = await buildApp({
    operations: OPERATIONS,
    deps: container,
    logger,
    docsDir: DOCS_DIR,
    adminToken: config.adminToken,
  });
  await app.listen({ host: config.host, port: config.port });
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
  const shutdown = (signal: string): void => {
    logger.info({ signal }, "shutting down");
    void closeApp(app, SHUTDOWN_GRACE_MS)
      .then(() => feed?.stop())
      .then(() => scheduler?.stop())
      .then(() => follower?.stop())
      .then(() => container.close())
      .finally(() => process.exit(0));
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  return app;
}
