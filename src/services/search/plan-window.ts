import type { Plan } from "../../domain/plans.js";
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
