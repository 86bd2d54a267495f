import type { CreditRange } from "../pricing.js";

// What a call is charged once it ran: what it took, never above its estimate
// nor below its minimum; a call that did not say what it took is charged its
// worst case, the figure it was admitted on.

export function clampCharge(price: CreditRange, took: number | undefined): number {
  return Math.min(price.max, Math.max(price.min, took ?? price.max));
}
