import type { FollowerLease } from "../ports/slot-ledger.js";
import type { Logger } from "../shared/logger.js";
import type { FeedFollower } from "../usecases/feed/feed-follower.js";

// `serve --follow`: a follower round every poll interval, by whichever process holds the follower lease (one
// among replicas); the others keep trying the lease each interval and take over when its holder dies.

export class FeedLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Whether this process followed at the last round; logged when it changes (and at the first round). */
  private following: boolean | undefined;

  constructor(
    private readonly follower: FeedFollower,
    private readonly lease: FollowerLease,
    private readonly pollMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops after the slot under way is ingested and recorded, then gives the lease up. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.lease.release().catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round().finally(() => this.schedule(this.pollMs));
    }, ms);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    try {
      const held = await this.lease.hold();
      if (held !== this.following) {
        this.following = held;
        this.logger.info({}, held ? "following the feed" : "another replica follows the feed");
      }
      // The lease is renewed before each slot, so a long round keeps it and a lost one stops the round.
      if (held) await this.follower.poll(async () => !this.stopped && (await this.lease.hold()));
    } catch (error) {
      this.logger.error({ err: error }, "feed round failed; trying again next interval");
    }
  }
}
