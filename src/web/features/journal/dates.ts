/** Dates as the journal shows them: en-US, 12-hour clock (spec 9). */

/** '2026-03-03' → 'Tuesday, March 3, 2026'; the day is a calendar day, so no timezone shifts it. */
export function formatEntryDay(entryDate: string): string {
  const [y, m, d] = entryDate.split('-').map(Number);
  if (!y || !m || !d) return entryDate;
  return new Date(Date.UTC(y, m - 1, d, 12)).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * An instant as a time of day: '8:05 PM'. In the profile's timezone when given (the zone entry dates
 * and exports use), so a card never says another day's evening; else in the browser's.
 */
export function formatEntryTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const options: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', hour12: true };
  try {
    return date.toLocaleTimeString('en-US', timeZone ? { ...options, timeZone } : options);
  } catch {
    // A zone this browser does not know: its own zone rather than no time at all.
    return date.toLocaleTimeString('en-US', options);
  }
}

/** Today as YYYY-MM-DD in the reader's timezone, for date inputs. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
