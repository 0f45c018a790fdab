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
/** One formatter per zone: a reader meets one or two zones, so this stays tiny. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The kept en-US formatter for `timeZone` (the browser's own when not given, or when this browser
 * does not know the zone: its own time rather than none). One formatter gives the date, the year
 * and the time of day, so a phone builds a single one.
 */
function formatterIn(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? LOCAL;
  let formatter = formatters.get(key);
  if (!formatter) {
    const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true };
    try {
      formatter = new Intl.DateTimeFormat('en-US', timeZone ? { ...options, timeZone } : options);
    } catch {
      formatter = formatterIn(undefined);
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * An instant as the journal reads it: its calendar day and time of day in the profile's zone (the zone
 * entry dates and exports use, so a card never says another day's evening), else in the browser's.
 */
interface LocalMoment {
  /** YYYY-MM-DD. */
  date: string;
  /** '8:05 PM'. */
  time: string;
}

export function localMoment(instant: Date, timeZone: string | undefined): LocalMoment | null {
  if (Number.isNaN(instant.getTime())) return null;
  const parts = formatterIn(timeZone).formatToParts(instant);
  const value = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? '';
  const pad = (n: string) => n.padStart(2, '0');
  return { date: `${value('year')}-${pad(value('month'))}-${pad(value('day'))}`, time: `${value('hour')}:${value('minute')} ${value('dayPeriod')}` };
}

/** '2026-03-04' → 'Mar 4', with the year when it is not `sameYearAs`'s. */
export function formatShortDay(date: string, sameYearAs: string): string {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return date;
  const day = `${MONTHS[m - 1]!.slice(0, 3)} ${d}`;
  return date.slice(0, 4) === sameYearAs.slice(0, 4) ? day : `${day}, ${y}`;
}

/** The current year in `timeZone` (the journal's days are counted there), else in the browser's. */
export function yearIn(timeZone: string | undefined, now = new Date()): number {
  return Number(localMoment(now, timeZone)?.date.slice(0, 4));
}

/** Today as YYYY-MM-DD in the reader's timezone, for date inputs. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
