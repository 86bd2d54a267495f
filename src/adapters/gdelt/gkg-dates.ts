import type { DateMention, DatePrecision } from "../../domain/article.js";
import { daysInMonth } from "./gkg-timestamp.js";

// V2.1EnhancedDates: `resolution#month#day#year#offset`, `;`-separated. Checked against
// every row of the samples: resolution 1 carries only the year (month, day 0), 2 year and
// month (day 0), 3 all three, 4 month and day with year 0 (a recurring date such as
// `4#7#4#0#…` = 4 July). Impossible values (month 13, 30 February, year 0) are skipped.

export interface ParsedDates {
  mentioned_dates: string[];
  date_mentions: DateMention[];
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

function integer(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,4}$/.test(value)) return null;
  return Number(value);
}

// Leap year used for resolution 4, which has no year: 29 February must stay valid.
const ANY_LEAP_YEAR = 2000;

/** One entry to a mention, or null when the entry is malformed or impossible. */
export function parseDateEntry(entry: string): DateMention | null {
  const [resolution, monthText, dayText, yearText] = entry.split("#");
  const month = integer(monthText);
  const day = integer(dayText);
  const year = integer(yearText);
  if (month === null || day === null || year === null) return null;
  const validYear = year >= 1;
  const validMonth = month >= 1 && month <= 12;
  let date: string;
  let precision: DatePrecision;
  switch (resolution) {
    case "1":
      if (!validYear) return null;
      date = pad(year, 4);
      precision = "year";
      break;
    case "2":
      if (!validYear || !validMonth) return null;
      date = `${pad(year, 4)}-${pad(month, 2)}`;
      precision = "month";
      break;
    case "3":
      if (!validYear || !validMonth || day < 1 || day > daysInMonth(year, month)) return null;
      date = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
      precision = "day";
      break;
    case "4":
      if (!validMonth || day < 1 || day > daysInMonth(ANY_LEAP_YEAR, month)) return null;
      date = `--${pad(month, 2)}-${pad(day, 2)}`;
      precision = "month_day";
      break;
    default:
      return null;
  }
  return { date, precision };
}

export function parseEnhancedDates(field: string): ParsedDates {
  const byDate = new Map<string, DateMention>();
  for (const entry of field.split(";")) {
    if (entry === "") continue;
    const mention = parseDateEntry(entry);
    if (mention !== null && !byDate.has(mention.date)) byDate.set(mention.date, mention);
  }
  const date_mentions = [...byDate.values()];
  return { mentioned_dates: date_mentions.map((m) => m.date), date_mentions };
}
