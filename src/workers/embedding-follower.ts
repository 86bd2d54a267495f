import type { EmbeddingStage } from "../ports/embedding-stage.js";
import type { Logger } from "../shared/logger.js";
import { catchUpEmbeddings } from "../usecases/embedding/embedding-catch-up.js";

// The server's embedding stage: catches the monthly indexes up at start and
// then every `intervalMs`, so what an ingest (in this process or another)
// writes becomes semantically searchable shortly after it is keyword-searchable.

export const FOLLOW_INTERVAL_MS = 15_000;

export class EmbeddingFollower {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly stage: EmbeddingStage,
    private readonly logger: Logger,
    private readonly intervalMs = FOLLOW_INTERVAL_MS,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops after the step under way (one transaction), so nothing is left half-written. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round().finally(() => this.schedule(this.intervalMs));
    }, ms);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    try {
      const embedded = await catchUpEmbeddings(this.stage, { stopped: () => this.stopped });
      if (embedded > 0) this.logger.info({ embedded, model: this.stage.model }, "embedded articles");
    } catch (error) {
      this.logger.error({ err: error }, "embedding stage failed; retrying later");
    }
  }
}
