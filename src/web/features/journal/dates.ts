/**
 * Dates as the journal shows them: en-US, 12-hour clock (spec 9).
 *
 * The journal's first screen formats a date and a time on every card. Each `toLocale…String` call
 * with options builds a new ICU formatter, so each formatter here is built once, on first use, and
 * kept: one for calendar days (in UTC, where a YYYY-MM-DD day is itself) and one per time zone.
 */

let dayFormat: Intl.DateTimeFormat | undefined;
let shortDayFormats: { sameYear: Intl.DateTimeFormat; otherYear: Intl.DateTimeFormat } | undefined;

/** A YYYY-MM-DD day as a Date at its noon in UTC, or null when it is not a day. */
function calendarDay(day: string): Date | null {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return null;
  const date = new Date(Date.UTC(y, m - 1, d, 12));
  // Date.UTC takes years 0–99 as 1900–1999.
  date.setUTCFullYear(y);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** '2026-03-03' → 'Tuesday, March 3, 2026'; the day is a calendar day, so no timezone shifts it. */
export function formatEntryDay(entryDate: string): string {
  const date = calendarDay(entryDate);
  if (!date) return entryDate;
  dayFormat ??= new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  return dayFormat.format(date);
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
  const day = calendarDay(date);
  if (!day) return date;
  shortDayFormats ??= {
    sameYear: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    otherYear: new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }),
  };
  return (date.slice(0, 4) === sameYearAs.slice(0, 4) ? shortDayFormats.sameYear : shortDayFormats.otherYear).format(day);
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
