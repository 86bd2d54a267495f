import type { PartitionFailure } from "../../ports/index-coverage.js";
import { toStamp } from "../../shared/timestamps.js";
import type { MonthIndex } from "./article-indices.js";
import type { IndexNames } from "./index-names.js";

// Which monthly indices a query reads: those that can hold an article
// published within its window. Articles are filed by the month they were
// collected in, and published no later than collected (give or take a day of
// clock skew), so a month ending more than a day before `from` holds none of
// the window. `to` prunes nothing: an article published long ago can be
// collected this month. An index that cannot answer (closed, or a primary
// shard unassigned) is not asked; the answer says it is missing.

export interface MonthTargets {
  /** Indices to ask, as a comma-joined list for the request path (years wholly asked as one pattern). */
  index: string;
  /** The months asked. */
  months: string[];
  /** Months in the window that cannot answer. */
  failed: PartitionFailure[];
}

export function monthTargets(
  names: IndexNames,
  catalog: readonly MonthIndex[],
  window: { from?: string | undefined },
): MonthTargets {
  const inWindow = catalog.filter((m) => window.from === undefined || monthEndPlusSkew(m.month) >= window.from);
  const readable = inWindow.filter((m) => m.readable);
  const failed = inWindow
    .filter((m) => !m.readable)
    .map((m) => ({ partition: m.month, kind: "unreadable" as const, reason: m.reason ?? "the index cannot be read" }));
  return { index: compactNames(names, catalog, readable), months: readable.map((m) => m.month), failed };
}

/**
 * The indices as the request path names them. A node reads at most 4 KB of request line, about 150 monthly index
 * names: a year whose every index is asked is named by one pattern instead (`<prefix>-articles-2023*`).
 */
function compactNames(names: IndexNames, catalog: readonly MonthIndex[], asked: readonly MonthIndex[]): string {
  const askedMonths = new Set(asked.map((m) => m.month));
  const years = new Map<string, { all: number; asked: number }>();
  for (const m of catalog) {
    const year = m.month.slice(0, 4);
    const tally = years.get(year) ?? { all: 0, asked: 0 };
    tally.all++;
    if (askedMonths.has(m.month)) tally.asked++;
    years.set(year, tally);
  }
  const parts: string[] = [];
  for (const [year, tally] of years) {
    if (tally.asked === 0) continue;
    if (tally.asked === tally.all && tally.all > 1) parts.push(`${names.articlePattern.slice(0, -1)}${year}*`);
    else for (const m of asked) if (m.month.startsWith(year)) parts.push(m.index);
  }
  return parts.join(",");
}

/** The first instant a day after `month` (`YYYYMM`) ends, 14-digit. */
export function monthEndPlusSkew(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(4, 6));
  return toStamp(Date.UTC(y, m, 1) + 24 * 3600 * 1000);
}
