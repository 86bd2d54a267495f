import { largestNeeded, nearestRank, percentileOfParts } from "../../../domain/aggregate/percentile-rank.js";
import type { ArticleQuery } from "../../../domain/search-query.js";
import { signalCode, signalOfCode, type SignalName } from "../../../domain/vocabularies/signals-v1.js";
import type { AggregateQuery, AggregateResult, AggregateRow, SignalPercentile } from "../../../ports/article-search.js";
import type { MonthlyIndexes } from "../catalog/monthly-indexes.js";
import { toFtsMatch } from "../fts-match.js";
import type { QueryArgs } from "../partition-reads.js";
import type { SignalValuesPart } from "../partition-signals.js";
import { walkPartitions } from "../partition-walker.js";
import type { ReadPool } from "../read-pool.js";
import { absorb, readOf } from "./walk-merge.js";

// Tallies across monthly indexes: a signal's nearest-rank percentile over the
// matches (domain/aggregate/percentile-rank.ts, from each index's largest
// values), and time series summed bucket by bucket.

export class FederatedTallies {
  constructor(
    private readonly pool: ReadPool,
    private readonly indexes: MonthlyIndexes,
  ) {}

  async signalPercentile(
    query: Pick<ArticleQuery, "keywords" | "filters" | "budgetMs">,
    signal: SignalName,
    percentile: number,
  ): Promise<SignalPercentile> {
    const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
    const args: QueryArgs = match === undefined ? { filters: query.filters } : { filters: query.filters, match };
    const code = signalCode(signal);
    const startedMs = Date.now();
    // First pass: each index's values, or only their count where they can be read in order from their own index.
    const parts = new Map<string, SignalValuesPart>();
    const walk = await walkPartitions(
      this.pool,
      this.indexes.monthsFor(query),
      { lane: "heavy", budgetMs: query.budgetMs, startedMs },
      (month, deadline) => ({
        job: "signalValues",
        month,
        args: { ...args, code, ...(deadline === undefined ? {} : { deadline }) },
      }),
      (month, part) => parts.set(month, part),
    );
    // Second pass, over those that gave a count only: their largest values, as many as the percentile needs.
    const top = largestNeeded(
      [...parts.values()].reduce((n, p) => n + p.count, 0),
      percentile,
    );
    const short = [...parts].filter(([, p]) => p.values.length < Math.min(p.count, top)).map(([month]) => month);
    if (short.length > 0) {
      const again = await walkPartitions(
        this.pool,
        short,
        { lane: "heavy", budgetMs: query.budgetMs, startedMs },
        (month, deadline) => ({
          job: "signalValues",
          month,
          args: { ...args, code, top, ...(deadline === undefined ? {} : { deadline }) },
        }),
        // The count stays the first pass's: `top` was sized on it, and an index still being written may hold more
        // now (its largest values then include the newcomers that rank, never fewer than needed).
        (month, part) => parts.set(month, { count: parts.get(month)?.count ?? part.count, values: part.values }),
      );
      // An index that failed now counts for nothing: the rest still hold their share of the largest values
      // (fewer values in all need no more of them).
      for (const failure of again.failed) parts.delete(failure.partition);
      absorb(walk, again);
    }
    return {
      value: percentileOfParts([...parts.values()], percentile),
      // Exact over what was read; a scan the budget cut short saw only part of the values.
      approximate: walk.failed.some((f) => f.kind === "timed_out"),
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
    };
  }

  /** A time series (ports/article-search.ts): each monthly index groups its matches; buckets are summed here. */
  async aggregate(query: AggregateQuery): Promise<AggregateResult> {
    const match = query.keywords ? toFtsMatch(query.keywords) : undefined;
    const args: QueryArgs = match === undefined ? { filters: query.filters } : { filters: query.filters, match };
    const codes = (query.signals?.names ?? []).map(signalCode);
    const metrics = codes.length > 0 ? { ...query.metrics, signals: codes } : query.metrics;
    const rows = new Map<string, AggregateRow>();
    // Each signal's intensities per bucket, gathered from every index: the percentile is exact across indexes.
    const values = new Map<string, Map<number, number[]>>();
    const walk = await walkPartitions(
      this.pool,
      this.indexes.monthsFor(query),
      { lane: "heavy", budgetMs: query.budgetMs, startedMs: Date.now() },
      (month) => ({ job: "aggregate", month, args: { ...args, interval: query.interval, metrics } }),
      (_month, part) => {
        for (const { signals, ...row } of part.rows) {
          if (signals !== undefined) {
            const bucket = values.get(row.bucket) ?? new Map<number, number[]>();
            values.set(row.bucket, bucket);
            for (const [code, list] of Object.entries(signals)) {
              const kept = bucket.get(Number(code));
              if (kept === undefined) bucket.set(Number(code), list);
              else for (const value of list) kept.push(value);
            }
          }
          const seen = rows.get(row.bucket);
          if (seen === undefined) {
            rows.set(row.bucket, { ...row, approximate: false });
            continue;
          }
          seen.articles += row.articles;
          if (row.stories !== undefined) seen.stories = (seen.stories ?? 0) + row.stories;
          if (row.outlets !== undefined) seen.outlets = (seen.outlets ?? 0) + row.outlets;
          if (row.first !== null && (seen.first === null || row.first < seen.first)) seen.first = row.first;
          if (row.last !== null && (seen.last === null || row.last > seen.last)) seen.last = row.last;
          // Distinct counts of several indexes are summed: an upper bound.
          seen.approximate = true;
        }
      },
    );
    const percentile = query.signals?.percentile ?? 50;
    for (const [bucket, bySignal] of values) {
      const row = rows.get(bucket);
      if (row === undefined) continue;
      row.signals = {};
      for (const [code, list] of bySignal) {
        const name = signalOfCode(code);
        if (name === undefined || list.length === 0) continue;
        const sorted = Float64Array.from(list).sort();
        const mean = sorted.reduce((sum, v) => sum + v, 0) / sorted.length;
        row.signals[name] = { mean, percentile: nearestRank(sorted, percentile) as number, articles: sorted.length };
      }
    }
    return { rows: [...rows.values()], partitionsRead: readOf(walk), partitionsFailed: walk.failed };
  }
}
