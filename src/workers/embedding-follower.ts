import type { EmbeddingStage } from "../ports/embedding-stage.js";
import type { Logger } from "../shared/logger.js";
import { catchUpEmbeddings } from "../usecases/embedding/embedding-catch-up.js";
import { PeriodicLoop } from "./periodic-loop.js";

// The server's embedding stage: catches the monthly indexes up at start and
// then every `intervalMs`, so what an ingest (in this process or another)
// writes becomes semantically searchable shortly after it is keyword-searchable.

export const FOLLOW_INTERVAL_MS = 15_000;

export class EmbeddingFollower {
  private readonly loop: PeriodicLoop;

  constructor(
    private readonly stage: EmbeddingStage,
    private readonly logger: Logger,
    intervalMs = FOLLOW_INTERVAL_MS,
  ) {
    this.loop = new PeriodicLoop(() => this.round(), intervalMs);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops after the step under way (one transaction), so nothing is left half-written. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  private async round(): Promise<void> {
    try {
      const embedded = await catchUpEmbeddings(this.stage, { stopped: () => this.loop.isStopped });
      if (embedded > 0) this.logger.info({ embedded, model: this.stage.model }, "embedded articles");
    } catch (error) {
      this.logger.error({ err: error }, "embedding stage failed; retrying later");
    }
  }
}
