/**
 * Dates as the journal shows them: en-US, 12-hour clock (spec 9).
 *
 * The journal's first screen formats a date and a time on every card. Each `toLocale…String` call
 * with options builds a new ICU formatter, and a phone pays for loading ICU's data on the first one,
 * so calendar days are spelled out here without Intl, and the one formatter a time zone needs is
 * built once and kept.
 */

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** '2026-03-03' → 'Tuesday, March 3, 2026'; the day is a calendar day, so no timezone shifts it. */
export function formatEntryDay(entryDate: string): string {
  const [y, m, d] = entryDate.split('-').map(Number);
  if (!y || !m || !d) return entryDate;
  const date = new Date(Date.UTC(y, m - 1, d, 12));
  if (Number.isNaN(date.getTime())) return entryDate;
  return `${WEEKDAYS[date.getUTCDay()]}, ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** The browser's own zone. */
const LOCAL = '';
/** Formatters by zone and purpose: a reader meets one or two zones, so this stays tiny. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A kept en-US formatter in `timeZone` (the browser's own when not given, or when this browser does
 * not know the zone: its own time rather than none).
 */
function formatterIn(kind: 'time' | 'year', timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone ?? LOCAL}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const options: Intl.DateTimeFormatOptions = kind === 'time' ? { hour: 'numeric', minute: '2-digit', hour12: true } : { year: 'numeric' };
    try {
      formatter = new Intl.DateTimeFormat('en-US', timeZone ? { ...options, timeZone } : options);
    } catch {
      formatter = formatterIn(kind, undefined);
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * An instant as a time of day: '8:05 PM'. In the profile's timezone when given (the zone entry dates
 * and exports use), so a card never says another day's evening; else in the browser's.
 */
export function formatEntryTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return formatterIn('time', timeZone).format(date);
}

/** The current year in `timeZone` (the journal's days are counted there), else in the browser's. */
export function yearIn(timeZone: string | undefined, now = new Date()): number {
  return Number(formatterIn('year', timeZone).format(now));
}

/** Today as YYYY-MM-DD in the reader's timezone, for date inputs. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
