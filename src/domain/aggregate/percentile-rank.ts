// The nearest-rank percentile (spec: `signal_percentile_min`, and /aggregate's
// signal percentiles): the smallest value with at least that share of the
// values at or below it. Over several parts (an engine's indexes) without
// merging or sorting them all: each part's values come sorted, and the
// percentile (50 or more) is the m-th largest of the union, where m is at most
// half of it. Each part need only give its m largest.

/** Some of one part's values, ascending, and how many it holds in all. */
export interface PercentilePart {
  /** Values the part holds in all. */
  count: number;
  /** Ascending: all of them, or at least the largest the percentile needs. */
  values: ArrayLike<number>;
}

/** Rank (1-based, ascending) of the nearest-rank `percentile` among `n` values: the smallest with at least that share at or below it. */
export function nearestRankOf(n: number, percentile: number): number {
  // Less a hair: 90% of 10 is 9, not the 9.000000000000002 floating point gives.
  return Math.max(1, Math.ceil((percentile * n) / 100 - 1e-9));
}

/** How many of the largest values an index must give for the percentile over `n` values in all. */
export function largestNeeded(n: number, percentile: number): number {
  return n === 0 ? 0 : n - nearestRankOf(n, percentile) + 1;
}

/**
 * The nearest-rank `percentile` over every part's `count` values, each part giving (ascending) at least its
 * `min(count, largestNeeded(total))` largest. Null when no part has a value.
 */
export function percentileOfParts(parts: readonly PercentilePart[], percentile: number): number | null {
  const total = parts.reduce((n, p) => n + p.count, 0);
  const m = largestNeeded(total, percentile);
  if (m === 0) return null;
  for (const part of parts) {
    if (part.values.length < Math.min(part.count, m)) throw new Error("a part gave fewer of its largest values than needed");
  }
  // Walk down from the largest value of every part at once, m steps (m is at most half the values, and few parts).
  const cursors = parts.map((p) => ({ values: p.values, at: p.values.length - 1 }));
  let value: number | null = null;
  for (let step = 0; step < m; step++) {
    let best: (typeof cursors)[number] | undefined;
    for (const c of cursors) {
      if (c.at >= 0 && (best === undefined || (c.values[c.at] as number) > (best.values[best.at] as number))) best = c;
    }
    if (best === undefined) break;
    value = best.values[best.at] as number;
    best.at--;
  }
  return value;
}

/** Nearest-rank percentile of ascending `values`; null when there is none. */
export function nearestRank(values: ArrayLike<number>, percentile: number): number | null {
  if (values.length === 0) return null;
  return values[nearestRankOf(values.length, percentile) - 1] ?? null;
}
