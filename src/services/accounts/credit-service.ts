import { ATTRIBUTION } from "../../domain/attribution.js";
import type { Plan } from "../../domain/plans.js";
import type { CreditRange, Price } from "../../domain/pricing.js";
import type { ControlStore, CreditState, Rates, Reservation } from "../../ports/control-store.js";
import { ApiError } from "../../shared/api-error.js";
import type { Clock } from "../../shared/clock.js";
import type { Account, Preview } from "../../schemas/responses.js";
import type { Caller } from "./account-service.js";
import { creditHeaders, creditPeriod, secondsUntilMonthEnd } from "./credit-headers.js";

// Budgets (spec document 1, sections 5 and 8): a durable monthly counter, a
// continuously refilling per-minute credit bucket, and a message bucket for
// free calls and refused requests. A priced call reserves its worst case
// before it runs and settles to what it took, so concurrent calls can never
// be admitted past a budget and the counters always equal what was charged.

/** Credits held for a running call. */
export interface Hold {
  caller: Caller;
  price: Price;
  period: string;
}

export class CreditService {
  constructor(
    private readonly store: ControlStore,
    private readonly clock: Clock,
  ) {}

  /** Reserves a priced call's worst case, or refuses it: monthly cap first, then this minute's credits. */
  async reserve(caller: Caller, price: Price): Promise<Hold> {
    const { reservation, nowMs } = await this.reserveFrom(caller, price, minuteNeeded(caller.plan, price));
    if (!reservation.admitted) throw this.refusal(reservation.refusedBy, caller.plan, price, reservation.state, nowMs);
    return { caller, price, period: creditPeriod(nowMs) };
  }

  /**
   * Work the service does for a key without a request (watch runs, webhook
   * attempts): held to the monthly cap of a hard-capped plan like any call,
   * but never refused by the per-minute rate, which paces callers, not jobs.
   * Undefined when the month's credits do not cover the worst case.
   */
  async reserveForJob(caller: Caller, price: Price): Promise<Hold | undefined> {
    const { reservation, nowMs } = await this.reserveFrom(caller, price, Number.NEGATIVE_INFINITY);
    return reservation.admitted ? { caller, price, period: creditPeriod(nowMs) } : undefined;
  }

  /** Settles a hold to what the call took (0 on an error) and returns the credit headers. */
  async settle(hold: Hold, took: number): Promise<Record<string, string>> {
    const nowMs = this.clock.now();
    const unused = hold.price.max - took;
    const state = await this.store.release(hold.caller.tenant.id, hold.period, unused, rates(hold.caller.plan), nowMs);
    return creditHeaders({ plan: hold.caller.plan, state, charged: took, nowMs });
  }

  /**
   * Gives back part of a call already settled: an export's rows never sent when its stream ended short. Counted
   * in the current month's period.
   */
  async refund(caller: Caller, credits: number): Promise<void> {
    if (credits <= 0) return;
    const nowMs = this.clock.now();
    await this.store.release(caller.tenant.id, creditPeriod(nowMs), credits, rates(caller.plan), nowMs);
  }

  /** Free calls and refused requests take a message token; past the plan's rate they are refused. */
  async admitMessage(caller: Caller): Promise<void> {
    const admission = await this.store.takeMessage(caller.tenant.id, caller.plan.messages_per_minute, this.clock.now());
    if (!admission.admitted) {
      const retry = Math.max(1, Math.ceil(60 / caller.plan.messages_per_minute));
      throw new ApiError(
        "message_rate_limited",
        `More than ${caller.plan.messages_per_minute} free calls or refused requests this minute. Retry in ${retry} s.`,
        { messages_per_minute: caller.plan.messages_per_minute, retry_after_secs: retry },
        retry,
      );
    }
  }

  /** The credit headers as they stand, for a response that charged nothing. */
  async headers(caller: Caller): Promise<Record<string, string>> {
    const nowMs = this.clock.now();
    return creditHeaders({ plan: caller.plan, state: await this.state(caller, nowMs), charged: 0, nowMs });
  }

  /** What a call would cost and whether it would run now, without running or charging it. */
  async preview(caller: Caller, operation: string, price: Price): Promise<Preview> {
    const nowMs = this.clock.now();
    const { plan } = caller;
    const state = await this.state(caller, nowMs);
    const remaining = plan.credits_limit > 0 ? Math.max(0, plan.credits_limit - state.credits_used) : null;
    let refusal: string | undefined;
    if (plan.hard_cap && remaining !== null && price.max > remaining) refusal = "insufficient_credits";
    else if (state.minute_tokens < minuteNeeded(plan, price)) refusal = "credit_rate_limited";
    return {
      estimate: true,
      operation,
      credits: { min: price.min, max: price.max },
      breakdown: price.breakdown,
      credits_remaining: remaining,
      credits_per_minute_remaining: Math.max(0, Math.floor(state.minute_tokens)),
      would_run: refusal === undefined,
      ...(refusal ? { refusal } : {}),
      credits_charged: 0,
      attribution: ATTRIBUTION,
    };
  }

  /** GET /account: the tenant's plan and counters. */
  async account(caller: Pick<Caller, "tenant" | "plan">): Promise<Account> {
    const nowMs = this.clock.now();
    const { plan } = caller;
    const state = await this.state(caller, nowMs);
    const now = new Date(nowMs);
    return {
      tenant: caller.tenant.name,
      plan: plan.id,
      credits_per_minute: plan.credits_per_minute,
      credits_limit: plan.credits_limit,
      credits_used: state.credits_used,
      credits_remaining: plan.credits_limit > 0 ? Math.max(0, plan.credits_limit - state.credits_used) : null,
      credits_reset_secs: secondsUntilMonthEnd(nowMs),
      period_start: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000,
      hard_cap: plan.hard_cap,
      metered_billing: !plan.hard_cap && plan.credits_limit > 0,
      history_days: plan.history_days,
      credits_charged: 0,
      attribution: ATTRIBUTION,
    };
  }

  private async reserveFrom(
    caller: Caller,
    price: Price,
    minuteNeeded: number,
  ): Promise<{ reservation: Reservation; nowMs: number }> {
    const nowMs = this.clock.now();
    const { plan } = caller;
    const reservation = await this.store.reserve({
      tenantId: caller.tenant.id,
      period: creditPeriod(nowMs),
      nowMs,
      rates: rates(plan),
      credits: price.max,
      monthlyCap: plan.hard_cap && plan.credits_limit > 0 ? plan.credits_limit : null,
      minuteNeeded,
    });
    return { reservation, nowMs };
  }

  private state(caller: Pick<Caller, "tenant" | "plan">, nowMs: number): Promise<CreditState> {
    return this.store.creditState(caller.tenant.id, creditPeriod(nowMs), rates(caller.plan), nowMs);
  }

  private refusal(by: "monthly" | "minute", plan: Plan, price: Price, state: CreditState, nowMs: number): ApiError {
    const credits = { min: price.min, max: price.max };
    if (by === "monthly") {
      const remaining = Math.max(0, plan.credits_limit - state.credits_used);
      const renews = secondsUntilMonthEnd(nowMs);
      return new ApiError(
        "insufficient_credits",
        `This call can cost up to ${price.max} credits and ${remaining} of this month's ${plan.credits_limit} are left. The allocation renews in ${renews} s (UTC month start).`,
        {
          credits,
          credits_limit: plan.credits_limit,
          credits_used: state.credits_used,
          credits_remaining: remaining,
          retry_after_secs: renews,
        },
        renews,
      );
    }
    const needed = minuteNeeded(plan, price);
    const retry = Math.max(1, Math.ceil(((needed - state.minute_tokens) * 60) / plan.credits_per_minute));
    return new ApiError(
      "credit_rate_limited",
      `This call needs ${needed} credits from this minute's ${plan.credits_per_minute} and ${Math.max(0, Math.floor(state.minute_tokens))} are left; they refill continuously. Retry in ${retry} s.`,
      {
        credits,
        credits_needed: needed,
        credits_per_minute: plan.credits_per_minute,
        credits_per_minute_remaining: Math.max(0, Math.floor(state.minute_tokens)),
        retry_after_secs: retry,
      },
      retry,
    );
  }
}

function rates(plan: Plan): Rates {
  return { creditsPerMinute: plan.credits_per_minute };
}

/** A call larger than a minute's credits waits for a full bucket instead of being refused outright. */
function minuteNeeded(plan: Plan, price: Price): number {
  return Math.min(price.max, plan.credits_per_minute);
}
