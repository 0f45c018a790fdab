import { isValidTimeZone, localDate } from '../zones';

/** An instant as ISO-8601, or null when the text is not a date. */
export function isoInstant(value: string): string | null {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** The local day an instant falls on in `zone`, or in `fallbackZone` when `zone` is missing or unknown. */
export function dayIn(instant: string, zone: string | undefined, fallbackZone: string): string {
  return localDate(new Date(instant), zone && isValidTimeZone(zone) ? zone : fallbackZone);
}
