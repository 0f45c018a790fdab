// Which earlier entries are "On This Day", the same on the server and, for a Vault journal, in the browser.

/** True for a leap year in the Gregorian calendar. */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * The month-days (MM-DD) of earlier years that count as "this day" on `today` (YYYY-MM-DD).
 * 29 February comes back on 28 February in common years, so a leap-day entry is remembered every
 * year and not only every fourth; in a leap year it comes back on the 29th itself.
 */
export function matchingMonthDays(today: string): string[] {
  const monthDay = today.slice(5);
  if (monthDay === '02-28' && !isLeapYear(Number(today.slice(0, 4)))) return ['02-28', '02-29'];
  return [monthDay];
}

/** Whether an entry's day is "this day" in an earlier year than `today`. */
export function isOnThisDay(entryDate: string, today: string): boolean {
  return entryDate.slice(0, 4) < today.slice(0, 4) && matchingMonthDays(today).includes(entryDate.slice(5));
}

/** Whole years between an earlier entry's day and today (by calendar year: 2025-02-29 → 2026-02-28 is 1). */
export function yearsAgo(entryDate: string, today: string): number {
  return Number(today.slice(0, 4)) - Number(entryDate.slice(0, 4));
}
