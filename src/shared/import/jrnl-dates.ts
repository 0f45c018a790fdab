import { isCalendarDay } from '../validation';

// jrnl reads an entry's bracketed date with the journal's `timeformat` (strftime, "%Y-%m-%d %H:%M"
// by default) and, when that fails, with dateutil's parser; a blob of six characters or fewer is
// never a date (a footnote like "[1]"). We do not know the writer's timeformat, so this reads the
// layouts those produce: 2013-06-09 15:39, 2013-06-09 03:39:00 PM, 09.06.2013 15:39, 06/09/2013,
// June 9, 2013 3:39 PM, Sun 09 Jun 2013…, and the partial dates dateutil completes from its
// default (2019-07 14:23 is 2019-07-01 14:23). A missing time is midnight.

/** Whether a.b.yyyy means day.month or month.day: the same for every entry of a file. */
export type DayOrder = 'dmy' | 'mdy';

export interface WallClock {
  /** YYYY-MM-DD */
  day: string;
  /** HH:MM, 24-hour */
  time: string;
  seconds: number;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = /^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(day|nesday|rsday|urday|sday)?\.?$/i;
const TIME = /(?:^|[\sT,])(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:\s*([AaPp])\.?\s?[Mm]\.?)?$/;
const NUMERIC = /^(\d{1,2})([./-])(\d{1,2})\2(\d{2}|\d{4})$/;
const YEAR_FIRST = /^(\d{4})(?:([./-])(\d{1,2})(?:\2(\d{1,2}))?)?$/;

const pad = (n: number) => String(n).padStart(2, '0');

function monthOf(word: string): number | null {
  const at = MONTHS.indexOf(word.toLowerCase().replace(/\.$/, '').slice(0, 3));
  return at === -1 || !/^[a-z]+\.?$/i.test(word) ? null : at + 1;
}

/** strptime's %y: 69–99 are the 1900s, 00–68 the 2000s. */
const fullYear = (year: string) => (year.length === 4 ? Number(year) : Number(year) + (Number(year) < 69 ? 2000 : 1900));

/** The a.b.yyyy dates among the blobs, for dayOrder. */
function numericDates(blobs: readonly string[]): Array<[number, number, string]> {
  const found: Array<[number, number, string]> = [];
  for (const blob of blobs) {
    const match = NUMERIC.exec(blob.trim().replace(TIME, '').trim());
    if (match) found.push([Number(match[1]), Number(match[3]), match[2]!]);
  }
  return found;
}

/**
 * Day first or month first, from a file's a.b.yyyy dates: a first number past 12 can only be a day,
 * a second past 12 only a day; else by the separator (09.06.2013 is German, 06/09/2013 American).
 */
export function dayOrder(blobs: readonly string[]): DayOrder {
  const dates = numericDates(blobs);
  if (dates.some(([a]) => a > 12)) return 'dmy';
  if (dates.some(([, b]) => b > 12)) return 'mdy';
  return dates.some(([, , separator]) => separator === '/') ? 'mdy' : 'dmy';
}

function wallTime(hour: number, minute: number, second: number, meridiem: string | undefined): [number, number, number] | null {
  let h = hour;
  if (meridiem) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (meridiem.toLowerCase() === 'p' ? 12 : 0);
  }
  return h > 23 || minute > 59 || second > 59 ? null : [h, minute, second];
}

/** Year, month and day of the date part, or null when it is not a date; 0 for what is missing. */
function datePart(text: string, order: DayOrder): [number, number, number] | null {
  const yearFirst = YEAR_FIRST.exec(text);
  if (yearFirst) return [Number(yearFirst[1]), Number(yearFirst[3] ?? 1), Number(yearFirst[4] ?? 1)];
  const numeric = NUMERIC.exec(text);
  if (numeric) {
    const [a, b] = [Number(numeric[1]), Number(numeric[3])];
    return order === 'dmy' ? [fullYear(numeric[4]!), b, a] : [fullYear(numeric[4]!), a, b];
  }
  // Words: a month name, a day, a year, a weekday (ignored), "of" and "at" (ignored).
  let year = 0;
  let month = 0;
  let day = 0;
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    if (WEEKDAYS.test(word) || /^(of|at|the)$/i.test(word)) continue;
    const name = monthOf(word);
    const number = /^(\d{1,4})(st|nd|rd|th)?$/i.exec(word);
    if (name && !month) month = name;
    else if (number && number[1]!.length === 4 && !year && !number[2]) year = Number(number[1]);
    else if (number && number[1]!.length <= 2 && !day) day = Number(number[1]);
    else return null;
  }
  return month ? [year, month, day || 1] : null;
}

/**
 * A jrnl entry's bracketed date as the wall-clock time it names; null when the blob is not a date
 * (the line is body text), 'invalid' when it reads as a date that does not exist (2022-02-30).
 */
export function parseJrnlDate(blob: string, order: DayOrder, now: Date): WallClock | 'invalid' | null {
  const text = blob.trim();
  if (text.length <= 6) return null;
  const time = TIME.exec(text);
  const rest = (time ? text.slice(0, time.index) : text).trim().replace(/[,\s]*\bat$/i, '').replace(/,$/, '').trim();
  if (rest === '') return null;
  const date = datePart(rest, order);
  if (!date) return null;
  const [, month, day] = date;
  let year = date[0];
  const clock: [number, number, number] | null = time ? wallTime(Number(time[1]), Number(time[2]), Number(time[3] ?? 0), time[4]) : [0, 0, 0];
  if (!clock) return 'invalid';
  if (!year) {
    // dateutil's default year is jrnl's current year, the year before when that is weeks ahead.
    year = now.getUTCFullYear();
    if (Date.UTC(year, month - 1, day) - now.getTime() > 28 * 86_400_000) year -= 1;
  }
  const iso = `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;
  if (!isCalendarDay(iso)) return 'invalid';
  return { day: iso, time: `${pad(clock[0])}:${pad(clock[1])}`, seconds: clock[2] };
}
