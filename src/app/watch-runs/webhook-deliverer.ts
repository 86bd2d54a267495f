import { createHmac, randomUUID } from "node:crypto";
import { priceOf } from "../../domain/pricing.js";
import { DELIVERY_ATTEMPTS_MAX, WATCH_LIMITS } from "../../domain/watches/watch.js";
import { parseWebhookUrl } from "../../domain/watches/webhook-url.js";
import type { DeliveryJob, DeliverySettlement, WatchStore } from "../../ports/watch-store.js";
import type { WebhookSender } from "../../ports/webhook-sender.js";
import type { WatchWebhook } from "../../schemas/responses.js";
import type { AccountService } from "../../usecases/accounts/account-service.js";
import type { CreditService } from "../../usecases/accounts/credit-service.js";
import type { Clock } from "../../shared/clock.js";
import type { Logger } from "../../shared/logger.js";
import { parseStamp } from "../../shared/timestamps.js";

// Webhook delivery from the durable outbox (spec 02, Webhook delivery): each
// recorded event of a watch with a webhook is POSTed as JSON, signed with the
// watch's secret; a failed attempt is retried after 1, 5 and 25 minutes, and
// one that exhausts them is `failed`. Each attempt costs the creating key 1
// credit; a hard-capped key that ran out holds the delivery (`held_credits`),
// retried hourly, failed once the event reaches its seven-day retention.
// The outbox lives in the store, so retries survive a restart.

export const WEBHOOK_HEADERS = {
  event: "x-service-event",
  delivery: "x-service-delivery",
  signature: "x-service-signature",
} as const;

/** `sha256=<hex HMAC-SHA256 of the body under the secret>`, what a receiver recomputes to verify a delivery. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** What deliveries are counted under in the usage counters. */
const DELIVERIES = { as: "job", operation: "webhook deliveries" } as const;

export class WebhookDeliverer {
  readonly holder: string;
  private readonly leaseMs: number;
  private readonly batch: number;

  constructor(
    private readonly store: WatchStore,
    private readonly sender: WebhookSender,
    private readonly accounts: AccountService,
    private readonly credits: CreditService,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: { holder?: string; leaseMs?: number; batch?: number } = {},
  ) {
    this.holder = options.holder ?? `deliverer-${randomUUID()}`;
    this.leaseMs = options.leaseMs ?? 2 * 60_000;
    // One at a time: a claim's lease starts with its own attempt. Claimed 50 at once and POSTed one after another
    // (each may take up to the sender's 10 s), the last ones' leases could run out before their turn, and another
    // replica would POST (and charge) them as well.
    this.batch = options.batch ?? 1;
  }

  /** Attempts every delivery due now, asking `going` before each claim (as runDue does); returns what became of each. */
  async deliverDue(
    going: () => boolean = () => true,
  ): Promise<Array<{ delivery_id: string; outcome: DeliverySettlement["outcome"] }>> {
    const done: Array<{ delivery_id: string; outcome: DeliverySettlement["outcome"] }> = [];
    while (going()) {
      const jobs = await this.store.claimDueDeliveries(this.clock.now(), this.holder, this.leaseMs, this.batch);
      for (const job of jobs) {
        const settlement = await this.attempt(job);
        await this.store.settleDelivery(job.delivery_id, this.holder, settlement);
        done.push({ delivery_id: job.delivery_id, outcome: settlement.outcome });
      }
      if (jobs.length < this.batch) break;
    }
    return done;
  }

  private async attempt(job: DeliveryJob): Promise<DeliverySettlement> {
    const nowMs = this.clock.now();
    const recordedMs = parseStamp(job.event.recorded_at) ?? nowMs;
    if (nowMs - recordedMs >= WATCH_LIMITS.eventRetentionMs) {
      return { outcome: "failed", attempts: job.attempts, error: "the event reached its retention before it could be delivered" };
    }
    const owner = await this.accounts.callerForKey(job.watch.key_id);
    if (owner === undefined || job.watch.webhook_url === null || job.watch.webhook_secret === null) {
      return { outcome: "failed", attempts: job.attempts, error: "the watch's key or webhook is gone" };
    }
    // The owning key revoked or expired, or its tenant suspended (spec 02, section 3): the watch is paused_key and
    // the delivery waits, not attempted and not charged, until the key is valid again or the event's retention ends.
    if (!owner.usable) return { outcome: "paused_key", nextAttemptMs: nowMs + WATCH_LIMITS.heldRetryMs };
    const { webhook_url: address, webhook_secret: secret } = job.watch;

    const attempt = job.attempts + 1;
    const metered = await this.credits.metered(owner.caller, priceOf({ operation: "watch" }), DELIVERIES, async () => {
      // Checked again at every delivery: a host may resolve elsewhere since the watch was created. A refused
      // address is not attempted, so not charged (it throws); an attempt that reached the network is.
      const url = parseWebhookUrl(address);
      const resolved = await this.sender.resolve(url);
      if (!resolved.ok) throw new Error(`refused: ${resolved.reason}`);
      const webhook: WatchWebhook = {
        delivery_id: job.delivery_id,
        watch_id: job.watch.id,
        label: job.watch.label,
        attempt,
        event: job.event,
      };
      const body = JSON.stringify(webhook);
      try {
        const posted = await this.sender.post(url, resolved.target, body, {
          [WEBHOOK_HEADERS.event]: job.event.kind,
          [WEBHOOK_HEADERS.delivery]: job.delivery_id,
          [WEBHOOK_HEADERS.signature]: webhookSignature(secret, body),
        });
        return posted.ok ? undefined : posted.error;
      } catch (thrown) {
        return thrown instanceof Error ? thrown.message : "delivery failed";
      }
    });
    if (metered === undefined) return { outcome: "held_credits", nextAttemptMs: nowMs + WATCH_LIMITS.heldRetryMs };
    const error = metered.ok ? metered.value : metered.error instanceof Error ? metered.error.message : "delivery failed";
    if (error === undefined) return { outcome: "delivered", attempts: attempt };
    this.logger.info({ watch_id: job.watch.id, delivery_id: job.delivery_id, attempt, error }, "webhook attempt failed");
    const delay = WATCH_LIMITS.retryDelaysMs[attempt - 1];
    if (attempt >= DELIVERY_ATTEMPTS_MAX || delay === undefined) return { outcome: "failed", attempts: attempt, error };
    return { outcome: "retry", attempts: attempt, nextAttemptMs: nowMs + delay, error };
  }
}
