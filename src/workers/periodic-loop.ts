// What every worker's timer does: a round now, then one `everyMs` after each
// round ends (rounds never overlap), until stopped; stopping waits for the
// round under way, so a worker never leaves its step half-done.

export class PeriodicLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  /** `round` never throws: each worker catches and logs its own failures. */
  constructor(
    private readonly round: () => Promise<void>,
    private readonly everyMs: number,
  ) {}

  /** True once stop() was called: a long round checks it between steps. */
  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round().finally(() => this.schedule(this.everyMs));
    }, ms);
    this.timer.unref();
  }
}
