import type { ControlStore } from "../../ports/control-store.js";
import { toStamp } from "../../shared/timestamps.js";

// The console's usage chart: calls and credits per UTC day of this month, by
// operation, from the durable per-day counters the charges write.

export interface MonthUsage {
  /** Every day of the month up to today, `YYYYMMDD`. */
  days: string[];
  /** Operations with any call this month, in name order. */
  operations: string[];
  /** Per operation, one figure per entry of `days`. */
  credits: Record<string, number[]>;
  calls: Record<string, number[]>;
  total_credits: number;
  total_calls: number;
}

export class UsageReport {
  constructor(private readonly store: ControlStore) {}

  async month(tenantId: string, nowMs: number): Promise<MonthUsage> {
    const today = new Date(nowMs);
    const days: string[] = [];
    for (let d = 1; d <= today.getUTCDate(); d++) {
      days.push(toStamp(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), d)).slice(0, 8));
    }
    const rows = await this.store.usage(tenantId, days[0] ?? "", days[days.length - 1] ?? "");
    const operations = [...new Set(rows.map((r) => r.operation))].sort();
    const zeros = (): number[] => days.map(() => 0);
    const credits = Object.fromEntries(operations.map((op) => [op, zeros()]));
    const calls = Object.fromEntries(operations.map((op) => [op, zeros()]));
    const index = new Map(days.map((day, i) => [day, i]));
    for (const row of rows) {
      const i = index.get(row.day);
      if (i === undefined) continue;
      (credits[row.operation] as number[])[i] = row.credits;
      (calls[row.operation] as number[])[i] = row.calls;
    }
    return {
      days,
      operations,
      credits,
      calls,
      total_credits: rows.reduce((sum, r) => sum + r.credits, 0),
      total_calls: rows.reduce((sum, r) => sum + r.calls, 0),
    };
  }
}
