const formatters = new Map<string, Intl.DateTimeFormat>();

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
  let format = formatters.get(zone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD. Building a formatter is slow: once per zone.
    format = new Intl.DateTimeFormat('en-CA', { timeZone: isValidTimeZone(zone) ? zone : 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(zone, format);
  }
  return format.format(instant);
}

/** A YYYY-MM-DD day moved by whole days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** True for a real calendar day (2026-02-30 is not); the shared rule, so a month 13 is refused, not thrown on. */
export { isCalendarDay } from '../../shared/validation';
