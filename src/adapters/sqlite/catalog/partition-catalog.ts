import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hasCode } from "../../../shared/caught.js";

// The months that have a monthly index, recorded when each file is created.
// Listing the directory alone cannot tell a month that never had data from one
// whose file went missing; with the catalog, a missing file is reported as an
// unreadable index (a partial answer), never as an absence of articles.

const NAME = "catalog.json";

/** A monthly index's file name: `articles-YYYYMM.db`. */
export const PARTITION_FILE = /^articles-(\d{6})\.db$/;

/** The file of month `YYYYMM` in the index directory `dir`. */
export function partitionPath(dir: string, month: string): string {
  return join(dir, `articles-${month}.db`);
}

export class PartitionCatalog {
  private readonly path: string;
  private cached: { mtimeMs: number; months: string[] } | undefined;

  constructor(dir: string) {
    this.path = join(dir, NAME);
  }

  /** Months recorded, re-read when another process (an ingest) changed the file. */
  months(): string[] {
    if (!existsSync(this.path)) return [];
    const mtimeMs = statSync(this.path).mtimeMs;
    if (this.cached?.mtimeMs !== mtimeMs) {
      try {
        const parsed = JSON.parse(readFileSync(this.path, "utf8")) as { months?: unknown };
        const months = Array.isArray(parsed.months) ? parsed.months.filter((m): m is string => typeof m === "string") : [];
        this.cached = { mtimeMs, months };
      } catch (error) {
        // A catalog being replaced (gone) or damaged (not JSON): fall back to the directory listing alone.
        if (hasCode(error, "ENOENT") || error instanceof SyntaxError) return [];
        throw error;
      }
    }
    return this.cached.months;
  }

  add(month: string): void {
    const months = new Set(this.months());
    if (months.has(month)) return;
    months.add(month);
    // Write-then-rename: a reader sees the old catalog or the new one, never half of one.
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ months: [...months].sort() }, null, 1));
    renameSync(tmp, this.path);
    this.cached = undefined;
  }
}
