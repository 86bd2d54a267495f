import { randomUUID } from "node:crypto";
import { ATTRIBUTION } from "../../domain/attribution.js";
import { minuteNeeded as minuteNeededOf } from "../../domain/billing/admission.js";
import { clampCharge } from "../../domain/billing/charge.js";
import type { Plan } from "../../domain/plans.js";
import type { Price } from "../../domain/pricing.js";
import type { ControlStore, CreditState, HeldCredits, Rates, Reservation } from "../../ports/control-store.js";
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
// A reservation is a hold owned by this process: one a crash leaves behind is
// released (releaseAbandonedHolds), so an unanswered call is charged nothing.

/** Credits held for a running call. */
export interface Hold {
  caller: Caller;
  price: Price;
  held: HeldCredits;
}

/** What a metered piece of work reports as it runs. */
export interface Meter {
  /** The credits the work took; unreported, it is charged its worst case. Held within the price's range. */
  took(credits: number): void;
}

export type WorkOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export type Metered<T> = WorkOutcome<T> & { charged: number; headers: Record<string, string> };

/** How a piece of work is metered: as a call or a job, and under which operation it is counted. */
export interface Metering<As extends "call" | "job"> {
  as: As;
  /** What the work's calls and credits are counted under in the per-day usage counters (`GET /search`, `watch runs`). */
  operation: string;
}

export interface MeterOptions<T> {
  /** The charge when the work throws; nothing unless said (a REST 404 is charged the operation's minimum). */
  chargeOnError?: (error: unknown) => number;
  /**
   * Bookkeeping that must be durable before the charge is (a watch run's
   * record): a crash in between then leaves the work uncharged rather than
   * charged again when it runs again. When it throws, nothing is charged.
   */
  beforeSettle?: (outcome: WorkOutcome<T>) => Promise<void>;
}

export class CreditService {
  /**
   * Holds whose settle failed (the control store out of reach as the call ended): the call was answered with an
   * error, so each is given back at 0 by the next sweep that reaches the store (releaseAbandonedHolds).
   */
  private readonly unsettled: Hold[] = [];

  constructor(
    private readonly store: ControlStore,
    private readonly clock: Clock,
  ) {}

  /** Reserves a priced call's worst case, or refuses it: monthly cap first, then this minute's credits. */
  async reserve(caller: Caller, price: Price, operation: string): Promise<Hold> {
    const { reservation, hold, nowMs } = await this.reserveFrom(caller, price, operation, minuteNeeded(caller.plan, price));
    if (!reservation.admitted) throw this.refusal(reservation.refusedBy, caller.plan, price, reservation.state, nowMs);
    return hold;
  }

  /**
   * Work the service does for a key without a request (watch runs, webhook
   * attempts): held to the monthly cap of a hard-capped plan like any call,
   * but never refused by the per-minute rate, which paces callers, not jobs.
   * Undefined when the month's credits do not cover the worst case.
   */
  async reserveForJob(caller: Caller, price: Price, operation: string): Promise<Hold | undefined> {
    const { reservation, hold } = await this.reserveFrom(caller, price, operation, Number.NEGATIVE_INFINITY);
    return reservation.admitted ? hold : undefined;
  }

  /** Settles a hold to what the call took (0 on an error) and returns the credit headers. */
  async settle(hold: Hold, took: number): Promise<Record<string, string>> {
    const nowMs = this.clock.now();
    const state = await this.store.settle(hold.held, took, rates(hold.caller.plan), nowMs);
    return creditHeaders({ plan: hold.caller.plan, state, charged: took, nowMs });
  }

  /**
   * Every priced piece of work, a call (REST or MCP), a watch run or a webhook
   * attempt, is charged here: reserve its worst case (a call is refused with
   * the budget's error; a job, held to the monthly cap only, is undefined when
   * it does not fit), run it, charge what it took within its price, settle.
   */
  async metered<T, As extends "call" | "job">(
    caller: Caller,
    price: Price,
    { as, operation }: Metering<As>,
    work: (meter: Meter) => Promise<T>,
    options: MeterOptions<T> = {},
  ): Promise<As extends "call" ? Metered<T> : Metered<T> | undefined> {
    type Answer = As extends "call" ? Metered<T> : Metered<T> | undefined;
    const hold =
      as === "call" ? await this.reserve(caller, price, operation) : await this.reserveForJob(caller, price, operation);
    if (hold === undefined) return undefined as Answer;
    let took: number | undefined;
    let outcome: WorkOutcome<T>;
    let charged: number;
    try {
      outcome = { ok: true, value: await work({ took: (credits) => (took = credits) }) };
      charged = clampCharge(price, took);
    } catch (error) {
      outcome = { ok: false, error };
      charged = options.chargeOnError?.(error) ?? 0;
    }
    try {
      await options.beforeSettle?.(outcome);
    } catch (error) {
      await this.settleOrKeep(hold, 0);
      throw error;
    }
    return { ...outcome, charged, headers: await this.settleOrKeep(hold, charged) } as Answer;
  }

  private async settleOrKeep(hold: Hold, took: number): Promise<Record<string, string>> {
    try {
      return await this.settle(hold, took);
    } catch (error) {
      this.unsettled.push(hold);
      throw error;
    }
  }

  /**
   * Gives back what crashed processes held (see ControlStore.releaseAbandonedHolds), and the holds of this
   * process's calls whose settle failed, at 0 (a settle of a hold already gone moves no credit). Returns how many.
   */
  async releaseAbandonedHolds(): Promise<number> {
    const pending = this.unsettled.splice(0);
    let released = 0;
    try {
      while (pending[0] !== undefined) {
        const hold = pending[0];
        await this.store.settle(hold.held, 0, rates(hold.caller.plan), this.clock.now());
        pending.shift();
        released++;
      }
    } finally {
      this.unsettled.push(...pending);
    }
    return released + (await this.store.releaseAbandonedHolds());
  }

  /**
   * Gives back part of a call already settled: an export's rows never sent when its stream ended short. Counted
   * in the current month's period, and in today's usage counter of `operation`.
   */
  async refund(caller: Caller, credits: number, operation: string): Promise<void> {
    if (credits <= 0) return;
    const nowMs = this.clock.now();
    await this.store.release(caller.tenant.id, creditPeriod(nowMs), credits, rates(caller.plan), nowMs, operation);
  }

  /** A free call answered (a preview, /account): one call and no credits in today's usage counter of `operation`. */
  async countFreeCall(caller: Caller, operation: string): Promise<void> {
    await this.store.countFreeCall(caller.tenant.id, operation, this.clock.now());
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
    operation: string,
    minuteNeeded: number,
  ): Promise<{ reservation: Reservation; hold: Hold; nowMs: number }> {
    const nowMs = this.clock.now();
    const { plan } = caller;
    const held: HeldCredits = {
      holdId: `hold_${randomUUID()}`,
      tenantId: caller.tenant.id,
      period: creditPeriod(nowMs),
      credits: price.max,
      operation,
    };
    const reservation = await this.store.reserve({
      tenantId: held.tenantId,
      period: held.period,
      nowMs,
      rates: rates(plan),
      credits: held.credits,
      monthlyCap: plan.hard_cap && plan.credits_limit > 0 ? plan.credits_limit : null,
      minuteNeeded,
      holdId: held.holdId,
    });
    return { reservation, hold: { caller, price, held }, nowMs };
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

function minuteNeeded(plan: Plan, price: Price): number {
  return minuteNeededOf(plan.credits_per_minute, price.max);
}
