import { tzOffset } from '@date-fns/tz';

// Days and wall-clock times in IANA zones, for the server and the browser alike (an import read in
// the browser must date its entries as the server would), on @date-fns/tz.

// Zone names seen, valid or not (finding out is slow); bounded, as the names come from user input.
const zoneValidity = new Map<string, boolean>();

export function isValidTimeZone(timeZone: string): boolean {
  let valid = zoneValidity.get(timeZone);
  if (valid === undefined) {
    // Its offset is a number for a zone this runtime knows, NaN for any other name.
    valid = timeZone !== '' && !Number.isNaN(tzOffset(timeZone, new Date(0)));
    if (zoneValidity.size >= 1_000) zoneValidity.clear();
    zoneValidity.set(timeZone, valid);
  }
  return valid;
}

/** An instant as its wall clock reads in a zone, as ISO 8601 without the zone ('2026-11-16T20:57:00'). */
export function wallClock(instant: Date, timeZone: string): string {
  return new Date(instant.getTime() + tzOffset(timeZone, instant) * 60_000).toISOString().slice(0, 19);
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a timezone; UTC when the zone is unknown. */
export function localDate(instant: Date, timeZone: string | null | undefined): string {
  return wallClock(instant, timeZone && isValidTimeZone(timeZone) ? timeZone : 'UTC').slice(0, 10);
}

const DAY_MS = 86_400_000;

/**
 * The instant a local wall time (`HH:MM` on `YYYY-MM-DD`) names in a zone. A time that happens twice
 * (clocks fall back) is its first occurrence; a time that never happens (clocks spring forward) is
 * moved on by the size of the gap, so 02:30 on the spring-forward night is 03:30. Worked out from the
 * zone's offsets alone, so the machine's own zone plays no part.
 */
export function zonedInstant(day: string, time: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const offset = (at: number) => tzOffset(timeZone, new Date(at)) * 60_000;
  // Real zones change offset at most once within a day either side, so these are the candidates.
  const before = offset(wall - DAY_MS);
  const after = offset(wall + DAY_MS);
  const matches = [...new Set([wall - before, wall - after])].filter((t) => t + offset(t) === wall);
  return new Date(matches.length ? Math.min(...matches) : wall - before);
}
