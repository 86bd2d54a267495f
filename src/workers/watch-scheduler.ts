import type { Logger } from "../shared/logger.js";
import type { WatchRunner } from "../app/watch-runs/watch-runner.js";
import type { WebhookDeliverer } from "../app/watch-runs/webhook-deliverer.js";

// The loop `newsindex serve` runs beside the HTTP server: due watches, then
// due webhook deliveries, every few seconds. Every replica runs it; the store's
// leases make each due watch and delivery run once.

export interface WatchJobs {
  runner: WatchRunner;
  deliverer: WebhookDeliverer;
}

export function startWatchScheduler(jobs: WatchJobs, logger: Logger, everyMs = 5_000): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = (): void => {
    running = (async () => {
      try {
        await jobs.runner.runDue();
        await jobs.deliverer.deliverDue();
      } catch (error) {
        logger.error({ err: error }, "watch scheduler pass failed");
      }
    })().finally(() => {
      if (!stopped) timer = setTimeout(tick, everyMs).unref();
    });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await running;
    },
  };
}
