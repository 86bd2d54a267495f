import type { Clock } from "../../shared/clock.js";
import type { SessionTotals } from "./session-fields.js";

// What a session used, for account_status. The endpoint is stateless: nothing
// about a session is needed to serve a request, so a session is only a label
// that counters hang off. It is the `mcp-session-id` the client echoes (we
// issue one on a 2025-era `initialize`), scoped to the API key that presents
// it; a request without one counts toward the key's default session. A
// session ends on DELETE /mcp or after IDLE_MS without a tool call. Counters
// live in this process (see /docs/mcp.md for the scaled shape).

/** Who a counter belongs to: the key, and the session id it presented (undefined: the key's default session). */
export interface SessionRef {
  keyId: string;
  sessionId: string | undefined;
}

interface Counter extends SessionTotals {
  lastCallMs: number;
}

export interface SessionMeterOptions {
  /** A session idle this long starts again from zero. */
  idleMs: number;
  /** Sessions kept at most; the least recently used is forgotten first. */
  maxSessions: number;
}

export const DEFAULT_SESSION_OPTIONS: SessionMeterOptions = { idleMs: 30 * 60_000, maxSessions: 10_000 };

export class SessionMeter {
  private readonly counters = new Map<string, Counter>();

  constructor(
    private readonly clock: Clock,
    private readonly options: SessionMeterOptions = DEFAULT_SESSION_OPTIONS,
  ) {}

  /** Counts one answered tool call and the credits it was charged; returns the totals including it. */
  record(ref: SessionRef, credits: number): SessionTotals {
    const now = this.clock.now();
    const key = keyOf(ref);
    const previous = this.live(key, now);
    const counter: Counter = {
      calls_this_session: (previous?.calls_this_session ?? 0) + 1,
      credits_this_session: (previous?.credits_this_session ?? 0) + credits,
      lastCallMs: now,
    };
    // Re-inserting keeps the Map in least-recently-used order for eviction.
    this.counters.delete(key);
    this.counters.set(key, counter);
    if (this.counters.size > this.options.maxSessions) {
      const oldest = this.counters.keys().next();
      if (!oldest.done) this.counters.delete(oldest.value);
    }
    return { calls_this_session: counter.calls_this_session, credits_this_session: counter.credits_this_session };
  }

  /** Ends a session: its next call starts from zero. */
  end(ref: SessionRef): void {
    this.counters.delete(keyOf(ref));
  }

  private live(key: string, now: number): Counter | undefined {
    const counter = this.counters.get(key);
    if (counter === undefined || now - counter.lastCallMs > this.options.idleMs) return undefined;
    return counter;
  }
}

function keyOf(ref: SessionRef): string {
  // A NUL cannot occur in a key id or a header value, so the pair is unambiguous.
  return `${ref.keyId}\u0000${ref.sessionId ?? ""}`;
}
