import type { Plan } from "../../domain/plans.js";
import { ApiError } from "../../shared/api-error.js";
import { toStamp } from "../../shared/timestamps.js";

// Archive depth (spec section 8, third plan limit): a `from` older than the
// plan reaches is moved forward and flagged, never refused.

export interface Window {
  from: string | undefined;
  to: string | undefined;
  from_clamped: boolean;
  history_days: number | null;
}

export function applyPlanWindow(plan: Plan, from: string | undefined, to: string | undefined, nowMs: number): Window {
  if (plan.history_days === null) return { from, to, from_clamped: false, history_days: null };
  const boundary = toStamp(nowMs - plan.history_days * 86_400_000);
  const clamped = from === undefined || from < boundary;
  return { from: clamped ? boundary : from, to, from_clamped: from !== undefined && clamped, history_days: plan.history_days };
}

/**
 * How every id endpoint (/doc, /stories/{id}, /similar/{id}) answers a record
 * that exists but was published before the plan reaches: 400
 * `invalid_parameter` on `id`, charged nothing, saying it is the plan's reach
 * and not absence. Not 404, which is a cacheable statement that no plan could
 * read it (docs/completeness.md, "Ids beyond your plan's reach").
 */
export function beyondPlanReach(subject: string, plan: Plan, nowMs: number): ApiError {
  const boundary = applyPlanWindow(plan, undefined, undefined, nowMs).from ?? "";
  const since = `${boundary.slice(0, 4)}-${boundary.slice(4, 6)}-${boundary.slice(6, 8)}`;
  return new ApiError(
    "invalid_parameter",
    `${subject} exists, but it is older than your plan reaches (history_days ${plan.history_days ?? "null"}: articles published since ${since}). This is the plan's reach, not a statement that it is absent: a plan with a deeper archive reads it.`,
    { parameter: "id" },
  );
}

/** True when an article published at `publishedAt` (14-digit) is older than the plan reaches. */
export function isBeyondReach(publishedAt: string, plan: Plan, nowMs: number): boolean {
  const boundary = applyPlanWindow(plan, undefined, undefined, nowMs).from;
  return boundary !== undefined && publishedAt < boundary;
}
