// Shared with the browser (an import read there dates its entries as the server would).
export { isValidTimeZone, localDate } from '../../shared/zones';

/** A YYYY-MM-DD day moved by whole days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** True for a real calendar day (2026-02-30 is not); the shared rule, so a month 13 is refused, not thrown on. */
export { isCalendarDay } from '../../shared/validation';
