import { tzOffset } from '@date-fns/tz';
import type { EntryRecording, JournalEntry } from './journal';
import { messages } from './messages';
import { voiceNoteLabel } from './voice-messages';
import { isValidTimeZone, localDate, wallClock } from './zones';

// The text exports (plain text, Markdown, JSON) and the PDF's words: the server writes them for
// every journal (src/server/export/), and the browser for a Vault journal, where it is unlocked.

export type ExportEntry = Omit<JournalEntry, 'photos' | 'recordings'> & {
  photos: Array<Pick<JournalEntry['photos'][number], 'file_name' | 'file_size' | 'mime_type'>>;
  /** Its voice notes (each exported as a "Voice note, 1:42" line; the transcript is in the text). */
  recordings?: Array<Pick<EntryRecording, 'duration_seconds'>>;
};

/** What every export format is given (the server's entries carry more: their photos' stored paths). */
export interface ExportInput<Entry extends ExportEntry = ExportEntry> {
  /** Newest day first; within a day, the latest written first. */
  entries: readonly Entry[];
  timezone: string;
  exportedAt: Date;
  /** The export day in the user's timezone (YYYY-MM-DD). */
  today: string;
  from?: string;
  to?: string;
  photos: boolean;
}

/** A zone the runtime knows, else UTC. */
const zoneOf = (timeZone: string) => (isValidTimeZone(timeZone) ? timeZone : 'UTC');

/** A formatter per zone and kind, made once: a ten-year export asks for thousands of times. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(kind: string, timeZone: string, options: Intl.DateTimeFormatOptions, locale = 'en-US'): Intl.DateTimeFormat {
  const zone = zoneOf(timeZone);
  const key = `${kind} ${zone}`;
  let format = formatters.get(key);
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone })));
  return format;
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a timezone. */
export const localDay = (instant: Date, timeZone: string) => localDate(instant, zoneOf(timeZone));

const dayFormat = new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** 'Sunday, November 22, 2026' for a YYYY-MM-DD day. */
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** '8:05 PM' in the user's timezone (12-hour, en-US). */
export const formatTime = (iso: string, timeZone: string) => formatterFor('time', timeZone, { hour: 'numeric', minute: '2-digit' }).format(new Date(iso));

/** 'HST', 'EST' or 'GMT+14': the zone's short name at that instant. */
function zoneAbbreviation(instant: Date, timeZone: string): string {
  const parts = formatterFor('name', timeZone, { timeZoneName: 'short' }).formatToParts(instant);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? zoneOf(timeZone);
}

/** 'Exported Monday, November 16, 2026 at 3:57 PM HST'. */
export const exportedLabel = (input: ExportInput) =>
  `Exported ${formatDay(input.today)} at ${formatTime(input.exportedAt.toISOString(), input.timezone)} ${zoneAbbreviation(input.exportedAt, input.timezone)}`;
export const zoneLabel = (timeZone: string) => `Times in ${zoneOf(timeZone)}`;
const sourceLabel = (entry: ExportEntry) => (entry.source === 'sms' ? 'Text message' : 'Web');
export const entryCount = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;

export function rangeLabel(from?: string, to?: string): string {
  if (from && to) return `From ${from} to ${to}`;
  if (from) return `From ${from}`;
  if (to) return `Up to ${to}`;
  return 'All entries';
}

/**
 * The zone an entry's times are shown in, as the journal shows them: the entry's own (where it was
 * written: an imported trip keeps its zone, and a later move of the profile changes no entry), else
 * the profile's.
 */
export const entryZone = (entry: Pick<ExportEntry, 'time_zone'>, timeZone: string) => zoneOf(entry.time_zone || timeZone);

/**
 * The line under an entry's date: '8:57 PM · Web', or 'Written <day> at 8:57 PM · Web' for a day
 * filled in later; times in the entry's own zone, named when it is not the profile's ('8:57 PM ·
 * Tokyo time · Web'), as the journal says it.
 */
export function entryMeta(entry: ExportEntry, timeZone: string): string {
  const zone = entryZone(entry, timeZone);
  const writtenOn = localDay(new Date(entry.created_at), zone);
  const time = formatTime(entry.created_at, zone);
  const otherZone = zone !== zoneOf(timeZone) ? ` · ${messages.entryZone(zone)}` : '';
  return `${writtenOn === entry.entry_date ? time : `Written ${formatDay(writtenOn)} at ${time}`}${otherZone} · ${sourceLabel(entry)}`;
}

/** '2026-11-16T20:57:00-05:00': an instant as ISO 8601 in a timezone, with its offset. */
export function isoInZone(iso: string, timeZone: string): string {
  const zone = zoneOf(timeZone);
  const instant = new Date(iso);
  const offset = tzOffset(zone, instant);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${wallClock(instant, zone)}${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** "Voice note, 1:42", one line per recording, oldest first (the transcript is in the entry's text). */
export const voiceNoteLines = (entry: Pick<ExportEntry, 'recordings'>): string[] => (entry.recordings ?? []).map((r) => voiceNoteLabel(Number(r.duration_seconds)));

/** Plain text: a header, then each entry under its date, separated by a rule. */
export function renderText(input: ExportInput): string {
  const lines = ['JOURNAL', `${exportedLabel(input)} · ${entryCount(input.entries.length)} · ${rangeLabel(input.from, input.to)}`, zoneLabel(input.timezone), ''];
  for (const entry of input.entries) {
    lines.push('='.repeat(60), `${formatDay(entry.entry_date)} · ${entryMeta(entry, input.timezone)}`);
    if (entry.title) lines.push(entry.title);
    if (entry.tags.length) lines.push(`Tags: ${entry.tags.join(', ')}`);
    lines.push('');
    if (entry.content) lines.push(entry.content, '');
    if (entry.recordings?.length) lines.push(...voiceNoteLines(entry), '');
    if (input.photos && entry.photos.length) lines.push(`Photos: ${entry.photos.map((p) => p.file_name).join(', ')}`, '');
  }
  return lines.join('\n');
}

// Keep journal text from turning into headings or lists when it starts a line with markup.
const escapeLineStarts = (text: string) => text.replace(/^([#>*+-]|\d+\.)(\s)/gm, '\\$1$2');

/** Markdown: a level-2 heading per entry (its date and title). */
export function renderMarkdown(input: ExportInput): string {
  const parts = [`# Journal`, '', `*${exportedLabel(input)} · ${entryCount(input.entries.length)} · ${rangeLabel(input.from, input.to)}*  `, `*${zoneLabel(input.timezone)}*`, ''];
  for (const entry of input.entries) {
    parts.push(`## ${formatDay(entry.entry_date)}${entry.title ? ` — ${entry.title}` : ''}`, '');
    parts.push(`*${entryMeta(entry, input.timezone)}*`, '');
    if (entry.tags.length) parts.push(`Tags: ${entry.tags.map((t) => `\`${t.replace(/`/g, "'")}\``).join(', ')}`, '');
    if (entry.content) parts.push(escapeLineStarts(entry.content).replace(/([^\n])\n(?!\n)/g, '$1  \n'), '');
    if (entry.recordings?.length) parts.push(voiceNoteLines(entry).map((line) => `*${line}*`).join('  \n'), '');
    if (input.photos && entry.photos.length) parts.push(`Photos: ${entry.photos.map((p) => p.file_name).join(', ')}`, '');
  }
  return parts.join('\n');
}

/** JSON: `{exported_at, timezone, entries: [...]}`, each entry as the API shows it, with its times in its own zone too (`time_zone`). */
export function renderJson(input: ExportInput): string {
  return JSON.stringify(
    {
      exported_at: input.exportedAt.toISOString(),
      timezone: input.timezone,
      entries: input.entries.map(({ photos, ...entry }) => ({
        id: entry.id,
        title: entry.title,
        content: entry.content,
        source: entry.source,
        entry_date: entry.entry_date,
        created_at: entry.created_at,
        updated_at: entry.updated_at,
        tags: entry.tags,
        word_count: entry.word_count,
        time_zone: entry.time_zone ?? null,
        created_at_local: isoInZone(entry.created_at, entryZone(entry, input.timezone)),
        updated_at_local: isoInZone(entry.updated_at, entryZone(entry, input.timezone)),
        ...(input.photos && { photos: photos.map((p) => ({ file_name: p.file_name, file_size: Number(p.file_size), mime_type: p.mime_type })) }),
      })),
    },
    null,
    2,
  );
}
