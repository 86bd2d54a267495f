// Admission of a priced call and of a message (spec document 1, section 5,
// rule 3, and section 8), decided from the counters as they stand. The control
// stores read the counters and write the outcome in one transaction; what is
// decided is decided here, once, for both.

export interface CreditState {
  /** Credits used in the current calendar month (UTC). */
  credits_used: number;
  /** Credits left in the per-minute bucket; negative after a call larger than a minute's credits. */
  minute_tokens: number;
}

export interface CreditDemand {
  /** Credits to reserve: the call's worst case. */
  credits: number;
  /** Refuse when the month's usage would pass this (a hard-capped plan); null: no cap. */
  monthlyCap: number | null;
  /** Refuse unless the minute bucket holds at least this many credits. */
  minuteNeeded: number;
}

export type Admission =
  { admitted: true; state: CreditState } | { admitted: false; refusedBy: "monthly" | "minute"; state: CreditState };

/** The monthly cap first, then the minute bucket; admitted, the counters after the reservation. */
export function admitCredits(current: CreditState, demand: CreditDemand): Admission {
  const { credits_used: used, minute_tokens: tokens } = current;
  if (demand.monthlyCap !== null && used + demand.credits > demand.monthlyCap) {
    return { admitted: false, refusedBy: "monthly", state: current };
  }
  if (tokens < demand.minuteNeeded) return { admitted: false, refusedBy: "minute", state: current };
  return { admitted: true, state: { credits_used: used + demand.credits, minute_tokens: tokens - demand.credits } };
}

export interface MessageAdmission {
  admitted: boolean;
  /** Messages left this minute (after this one when admitted). */
  remaining: number;
}

/** One message token from a bucket holding `tokens`; admitted, the bucket keeps `tokens` less one. */
export function admitMessage(tokens: number): MessageAdmission & { tokens: number } {
  if (tokens < 1) return { admitted: false, remaining: 0, tokens };
  return { admitted: true, remaining: Math.floor(tokens - 1), tokens: tokens - 1 };
}

/** A call larger than a minute's credits waits for a full bucket instead of being refused outright. */
export function minuteNeeded(creditsPerMinute: number, worstCase: number): number {
  return Math.min(worstCase, creditsPerMinute);
}
