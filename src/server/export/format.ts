import type { CachedEntry } from '../journal/cache';
import { isValidTimeZone, localDate } from '../journal/dates';

/** What every export format is given. */
export interface ExportInput {
  entries: readonly CachedEntry[];
  timezone: string;
  exportedAt: Date;
  /** The export day in the user's timezone (YYYY-MM-DD). */
  today: string;
  from?: string;
  to?: string;
  photos: boolean;
}

const dayFormat = new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** 'Sunday, November 22, 2026' for a YYYY-MM-DD day. */
export function formatDay(day: string): string {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}

/** '8:05 PM' in the user's timezone (12-hour, en-US). */
export function formatTime(iso: string, timeZone: string): string {
  let format = timeFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone });
    } catch {
      format = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
    }
    timeFormats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

const zoneOf = (timeZone: string) => (isValidTimeZone(timeZone) ? timeZone : 'UTC');
const zoneNames = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Intl.DateTimeFormat>();

/** 'HST', 'EST' or 'GMT+14': the zone's short name at that instant. */
function zoneAbbreviation(instant: Date, timeZone: string): string {
  const zone = zoneOf(timeZone);
  let format = zoneNames.get(zone);
  if (!format) zoneNames.set(zone, (format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })));
  return format.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/** 'Exported Monday, November 16, 2026 at 3:57 PM HST': when, in the user's timezone. */
export function exportedLabel(input: Pick<ExportInput, 'today' | 'exportedAt' | 'timezone'>): string {
  return `Exported ${formatDay(input.today)} at ${formatTime(input.exportedAt.toISOString(), input.timezone)} ${zoneAbbreviation(input.exportedAt, input.timezone)}`;
}

/** 'Times in Pacific/Honolulu': every time in the file is in the user's timezone. */
export const zoneLabel = (timeZone: string) => `Times in ${zoneOf(timeZone)}`;

/**
 * The line under an entry's date: '8:57 PM · Web'. An entry written on another day than its own
 * (a past day filled in later) says when: 'Written Friday, November 20, 2026 at 8:57 PM · Web'.
 */
export function entryMeta(entry: CachedEntry, timeZone: string): string {
  const writtenOn = localDate(new Date(entry.created_at), zoneOf(timeZone));
  const time = formatTime(entry.created_at, timeZone);
  return `${writtenOn === entry.entry_date ? time : `Written ${formatDay(writtenOn)} at ${time}`} · ${sourceLabel(entry)}`;
}

/** '2026-11-16T20:57:00-05:00': an instant as ISO 8601 in the user's timezone, with its offset. */
export function isoInZone(iso: string, timeZone: string): string {
  const zone = zoneOf(timeZone);
  let format = offsets.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    });
    offsets.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName!.replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

export function sourceLabel(entry: CachedEntry): string {
  return entry.source === 'sms' ? 'Text message' : 'Web';
}

/** 'All entries' or 'From 2026-01-01 to 2026-03-31'. */
export function rangeLabel(from?: string, to?: string): string {
  if (from && to) return `From ${from} to ${to}`;
  if (from) return `From ${from}`;
  if (to) return `Up to ${to}`;
  return 'All entries';
}

export const entryCount = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;
