import { parseTimeBound } from "../shared/timestamps.js";

// The forms a date mentioned in an article takes (GKG V2.1EnhancedDates by
// resolution): `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, and `--MM-DD` for a day and
// month without a year. The `mentioned_date` filter takes each of them, so every
// value its facet counts can be filtered on.

const FORMS = /^(?:(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?|--(\d{2})-(\d{2}))$/;

/** True when the value is one of the four forms and names a real year, month or day (`--02-29` included). */
export function isMentionedDate(value: string): boolean {
  const m = FORMS.exec(value);
  if (m === null) return false;
  const [, year, month, day, yearlessMonth, yearlessDay] = m;
  if (day !== undefined) return parseTimeBound(value, "start") !== undefined;
  if (month !== undefined) return Number(month) >= 1 && Number(month) <= 12;
  if (year !== undefined) return true;
  // A leap year holds every day a year-less date can name.
  return parseTimeBound(`2000-${yearlessMonth ?? ""}-${yearlessDay ?? ""}`, "start") !== undefined;
}
