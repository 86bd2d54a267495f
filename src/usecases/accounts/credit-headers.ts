import type { Plan } from "../../domain/plans.js";
import type { CreditState } from "../../ports/control-store.js";

// The nine credit headers of spec section 5, from a plan and its counters.

export interface CreditSnapshot {
  plan: Plan;
  state: CreditState;
  charged: number;
  nowMs: number;
}

export function creditHeaders({ plan, state, charged, nowMs }: CreditSnapshot): Record<string, string> {
  const headers: Record<string, string> = {
    "x-credits-charged": String(charged),
    "x-credits-per-minute": String(plan.credits_per_minute),
    "x-credits-per-minute-remaining": String(Math.max(0, Math.floor(state.minute_tokens))),
    "x-credits-per-minute-reset": String(secondsUntilBucketFull(plan, state)),
    "x-credits-reset": String(secondsUntilMonthEnd(nowMs)),
    "x-credits-used": String(state.credits_used),
  };
  if (plan.credits_limit > 0) {
    headers["x-credits-limit"] = String(plan.credits_limit);
    headers["x-credits-remaining"] = String(Math.max(0, plan.credits_limit - state.credits_used));
  }
  if (plan.history_days !== null) headers["x-plan-history-days"] = String(plan.history_days);
  return headers;
}

/** The bucket refills continuously; this is when it is full again. */
export function secondsUntilBucketFull(plan: Plan, state: CreditState): number {
  const missing = plan.credits_per_minute - state.minute_tokens;
  return missing <= 0 ? 0 : Math.ceil((missing * 60) / plan.credits_per_minute);
}

/** Seconds until the monthly allocation renews, at the next UTC month start. */
export function secondsUntilMonthEnd(nowMs: number): number {
  const now = new Date(nowMs);
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.ceil((next - nowMs) / 1000);
}

/** `YYYYMM` of the month the credits are counted in. */
export function creditPeriod(nowMs: number): string {
  const now = new Date(nowMs);
  return `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
}
