// Days and wall-clock times in IANA zones with nothing but Intl, for the server and the browser alike
// (an import read in the browser must date its entries as the server would).

const DAY_MS = 86_400_000;
const dayFormatters = new Map<string, Intl.DateTimeFormat>();
const partFormatters = new Map<string, Intl.DateTimeFormat>();

// Zone names seen, valid or not (building a formatter to find out is slow); bounded, as the names
// come from user input.
const zoneValidity = new Map<string, boolean>();

export function isValidTimeZone(timeZone: string): boolean {
  let valid = zoneValidity.get(timeZone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
      valid = true;
    } catch {
      valid = false;
    }
    if (zoneValidity.size >= 1_000) zoneValidity.clear();
    zoneValidity.set(timeZone, valid);
  }
  return valid;
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a timezone; UTC when the zone is unknown. */
export function localDate(instant: Date, timeZone: string | null | undefined): string {
  const zone = timeZone || 'UTC';
  let format = dayFormatters.get(zone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD. Building a formatter is slow: once per zone.
    format = new Intl.DateTimeFormat('en-CA', { timeZone: isValidTimeZone(zone) ? zone : 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(zone, format);
  }
  return format.format(instant);
}

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
export function zoneOffsetMs(instant: number, timeZone: string): number {
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
