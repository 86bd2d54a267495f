import type { Logger } from "../shared/logger.js";
import type { WatchRunner } from "../app/watch-runs/watch-runner.js";
import type { WebhookDeliverer } from "../app/watch-runs/webhook-deliverer.js";
import { PeriodicLoop } from "./periodic-loop.js";

// The loop `newsindex serve` runs beside the HTTP server: due watches, then
// due webhook deliveries, every few seconds. Every replica runs it; the store's
// leases make each due watch and delivery run once.

export interface WatchJobs {
  runner: WatchRunner;
  deliverer: WebhookDeliverer;
}

export function startWatchScheduler(jobs: WatchJobs, logger: Logger, everyMs = 5_000): { stop(): Promise<void> } {
  const loop = new PeriodicLoop(async () => {
    try {
      // Once stopping, nothing more is claimed: what is still due is left to the replicas that stay.
      const going = (): boolean => !loop.isStopped;
      await jobs.runner.runDue(going);
      await jobs.deliverer.deliverDue(going);
    } catch (error) {
      logger.error({ err: error }, "watch scheduler pass failed");
    }
  }, everyMs);
  loop.start();
  return loop;
}
