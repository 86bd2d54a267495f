// GKG times are 14-digit UTC `YYYYMMDDhhmmss` strings, kept as strings (the Article
// contract's format). "Valid" means a real calendar time, not just 14 digits.

const FOURTEEN_DIGITS = /^\d{14}$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Proleptic Gregorian; `month` is 1-12. */
export function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (month === 2 && leap) return 29;
  return DAYS_IN_MONTH[month - 1] ?? 0;
}

export function isGkgTimestamp(value: string): boolean {
  if (!FOURTEEN_DIGITS.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(4, 6));
  const day = Number(value.slice(6, 8));
  const hour = Number(value.slice(8, 10));
  const minute = Number(value.slice(10, 12));
  const second = Number(value.slice(12, 14));
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}
