import type { FollowerLease } from "../ports/slot-ledger.js";
import type { Logger } from "../shared/logger.js";
import type { FeedFollower } from "../usecases/feed/feed-follower.js";
import { PeriodicLoop } from "./periodic-loop.js";

// `serve --follow`: a follower round every poll interval, by whichever process holds the follower lease (one
// among replicas); the others keep trying the lease each interval and take over when its holder dies.

export class FeedLoop {
  private readonly loop: PeriodicLoop;
  /** Whether this process followed at the last round; logged when it changes (and at the first round). */
  private following: boolean | undefined;

  constructor(
    private readonly follower: FeedFollower,
    private readonly lease: FollowerLease,
    pollMs: number,
    private readonly logger: Logger,
  ) {
    this.loop = new PeriodicLoop(() => this.round(), pollMs);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops after the slot under way is ingested and recorded, then gives the lease up. */
  async stop(): Promise<void> {
    await this.loop.stop();
    try {
      await this.lease.release();
    } catch (error) {
      // Not fatal: PostgreSQL drops the lock with the connection, and a SQLite lease of a gone process passes.
      this.logger.warn({ err: error }, "could not give the follower lease up; it passes when this process is gone");
    }
  }

  private async round(): Promise<void> {
    try {
      const held = await this.lease.hold();
      if (held !== this.following) {
        this.following = held;
        this.logger.info({}, held ? "following the feed" : "another replica follows the feed");
      }
      // The lease is renewed before each slot, so a long round keeps it and a lost one stops the round.
      if (held) await this.follower.poll(async () => !this.loop.isStopped && (await this.lease.hold()));
    } catch (error) {
      this.logger.error({ err: error }, "feed round failed; trying again next interval");
    }
  }
}
