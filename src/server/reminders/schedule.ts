import { addDays, localDate } from '../journal/dates';
import { zonedInstant } from '../../shared/zones';

// Wall-clock arithmetic in IANA time zones lives in shared/zones.ts (the browser reads imports with it too).
export { zonedInstant };

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
