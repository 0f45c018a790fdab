import type { CachedEntry } from '../journal/cache';

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
