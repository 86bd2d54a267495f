import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import type { ArticleQuery } from "../../../domain/search-query.js";
import { monthOf, toStamp } from "../../../shared/timestamps.js";
import { PARTITION_FILE, PartitionCatalog, partitionPath } from "./partition-catalog.js";

// The monthly indexes of the embedded shape: one SQLite file per calendar
// month of `collected_at` under <dataDir>/index, and the catalog of months
// that have been written (partition-catalog.ts), so a month whose file went
// missing is reported unreadable rather than taken for empty.

export class MonthlyIndexes {
  private readonly catalog: PartitionCatalog;
  private listed: { mtimeMs: number; months: string[] } | undefined;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.catalog = new PartitionCatalog(dir);
  }

  /** Records a month whose file was just created. */
  add(month: string): void {
    this.catalog.add(month);
  }

  /**
   * Months with an index, newest first: files on disk and months the catalog
   * records (whose file may be missing). Listed per query, so partitions
   * written by another process appear.
   */
  months(): string[] {
    // The directory is listed again only when its modification time moved (a file was added or removed).
    const mtimeMs = statSync(this.dir).mtimeMs;
    if (this.listed?.mtimeMs !== mtimeMs) {
      const onDisk: string[] = [];
      for (const name of readdirSync(this.dir)) {
        const m = PARTITION_FILE.exec(name);
        if (m?.[1]) onDisk.push(m[1]);
      }
      this.listed = { mtimeMs, months: onDisk };
    }
    return [...new Set([...this.catalog.months(), ...this.listed.months])].sort().reverse();
  }

  /**
   * Partitions that can hold a match. An article is published no later than it
   * is collected (allowing a day of clock skew), so a month that ended more than
   * a day before `from` holds nothing at or after it.
   */
  monthsFor(query: Pick<ArticleQuery, "filters">): string[] {
    const from = query.filters.from;
    if (from === undefined) return this.months();
    return this.months().filter((month) => monthEndPlusSkew(month) >= from);
  }

  /** The monthly index holding an article id (its 14-digit prefix names it), or why there is none to ask. */
  indexOf(id: string): string | { status: "absent" } | { status: "unavailable"; reason: string } {
    if (!/^\d{14}/.test(id)) return { status: "absent" };
    const month = monthOf(id);
    if (existsSync(this.pathOf(month))) return month;
    return this.catalog.months().includes(month)
      ? { status: "unavailable", reason: `the monthly index ${month} is missing` }
      : { status: "absent" };
  }

  /** The file of a monthly index. */
  pathOf(month: string): string {
    return partitionPath(this.dir, month);
  }
}

/** 14-digit stamp one day after the last second of `YYYYMM`. */
export function monthEndPlusSkew(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(4, 6));
  return toStamp(Date.UTC(y, m, 1) + 24 * 3600 * 1000);
}
