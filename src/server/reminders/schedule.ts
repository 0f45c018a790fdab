import { addDays, localDate } from '../journal/dates';

// Wall-clock arithmetic in IANA time zones with nothing but Intl: a local day and time become the
// UTC instant they name, correct across daylight-saving changes.

const DAY_MS = 86_400_000;
const partFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let format = partFormatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormatters.set(timeZone, format);
  }
  return format;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms (New York in winter: -5 h). */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of partsFormatter(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a local wall time (`HH:MM` on `YYYY-MM-DD`) names in a zone. A time that happens twice
 * (clocks fall back) is its first occurrence; a time that never happens (clocks spring forward) is
 * moved on by the size of the gap, so 02:30 on the spring-forward night is 03:30.
 */
export function zonedInstant(day: string, time: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // Real zones change offset at most once within a day either side, so these are the candidates.
  const before = zoneOffsetMs(wall - DAY_MS, timeZone);
  const after = zoneOffsetMs(wall + DAY_MS, timeZone);
  const matches = [...new Set([wall - before, wall - after])].filter((t) => t + zoneOffsetMs(t, timeZone) === wall);
  return new Date(matches.length ? Math.min(...matches) : wall - before);
}

/**
 * Answers already worked out, by their question. A reminder pass asks the same few questions for
 * thousands of profiles (the slot that fell due, the usual times, a handful of zones), and each
 * answer takes a dozen Intl calls: they were most of a pass's time. The answers never change, so
 * the cache is only bounded, emptied when full.
 */
const MEMO_MAX = 10_000;
const answers = new Map<string, number>();

function remembered(key: string, work: () => Date): Date {
  let at = answers.get(key);
  if (at === undefined) {
    if (answers.size >= MEMO_MAX) answers.clear();
    at = work().getTime();
    answers.set(key, at);
  }
  return new Date(at);
}

/** The first daily `time` in the zone at or after `from`. */
export function nextDailyAt(from: Date, time: string, timeZone: string): Date {
  return remembered(`d ${from.getTime()} ${time} ${timeZone}`, () => {
    let day = addDays(localDate(from, timeZone), -1);
    for (;;) {
      const at = zonedInstant(day, time, timeZone);
      if (at.getTime() >= from.getTime()) return at;
      day = addDays(day, 1);
    }
  });
}

/** 0 = Sunday … 6 = Saturday, for a YYYY-MM-DD day. */
function weekdayOf(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}

/** The first `time` on a `weekday` (0 = Sunday) in the zone at or after `from`. */
export function nextWeeklyAt(from: Date, weekday: number, time: string, timeZone: string): Date {
  return remembered(`w ${from.getTime()} ${weekday} ${time} ${timeZone}`, () => {
    let day = addDays(localDate(from, timeZone), -1);
    for (;;) {
      if (weekdayOf(day) === weekday) {
        const at = zonedInstant(day, time, timeZone);
        if (at.getTime() >= from.getTime()) return at;
      }
      day = addDays(day, 1);
    }
  });
}
