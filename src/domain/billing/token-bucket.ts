// A continuously refilling bucket (spec document 1, section 8): `perMinute`
// tokens a minute, refilled at perMinute/60 a second up to `perMinute`. The
// per-minute credits and the message rate are both such buckets. Tokens may go
// negative after a call larger than a minute's credits; the refill pays it back.

/** A bucket as stored: its tokens when last written, and when. */
export interface StoredBucket {
  tokens: number;
  updatedMs: number;
}

/** The tokens a bucket holds at `nowMs`; a bucket never written is full. A clock that went back earns nothing. */
export function refilledTokens(bucket: StoredBucket | undefined, perMinute: number, nowMs: number): number {
  if (bucket === undefined) return perMinute;
  const elapsed = Math.max(0, nowMs - bucket.updatedMs);
  return Math.min(perMinute, bucket.tokens + (elapsed * perMinute) / 60_000);
}

/** The bucket after `credits` are given back: never above its size. */
export function refundedTokens(tokens: number, credits: number, perMinute: number): number {
  return Math.min(perMinute, tokens + credits);
}
