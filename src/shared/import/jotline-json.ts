import { z } from 'zod';
import { ENTRY_SOURCES, normalizeEntryText, normalizeTitle, splitTags } from '../journal-rules';
import { messages } from '../messages';
import { refuseFile } from './file-error';
import { isCalendarDay } from '../validation';
import { isValidTimeZone } from '../zones';
import { isoInstant } from './dates';
import type { ImportedEntry } from './types';

// Our own JSON export (export/json.ts): {exported_at, timezone, entries: [{id, title, content,
// source, entry_date, created_at, updated_at, tags, word_count, time_zone?, photos?}]}. Photos appear
// only as names and sizes (the ZIP export carries them), so they are counted, not brought back.

const exportedEntry = z.object({
  id: z.string().min(1, 'it has no id'),
  title: z.string().nullable().optional(),
  content: z.string({ error: 'it has no content' }),
  source: z.enum(ENTRY_SOURCES, { error: 'its source is not web or sms' }).default('web'),
  entry_date: z.string().refine(isCalendarDay, 'its entry_date is not a YYYY-MM-DD day'),
  created_at: z.string().refine((v) => isoInstant(v) !== null, 'its created_at is not a date'),
  updated_at: z.string().optional(),
  tags: z.array(z.string()).default([]),
  time_zone: z.string().nullish(),
  photos: z.array(z.object({ file_name: z.string().optional() })).optional(),
});

/** True for a parsed JSON document shaped like our export. */
export function looksLikeJotline(json: unknown): boolean {
  if (!json || typeof json !== 'object') return false;
  const doc = json as Record<string, unknown>;
  return typeof doc.exported_at === 'string' && Array.isArray(doc.entries);
}

export function parseJotline(json: unknown, fallbackZone: string): ImportedEntry[] {
  if (!looksLikeJotline(json)) throw refuseFile(messages.importer.unknownFormat);
  const doc = json as { entries: unknown[]; timezone?: unknown };
  const exportZone = typeof doc.timezone === 'string' && isValidTimeZone(doc.timezone) ? doc.timezone : fallbackZone;
  return doc.entries.map((item, index) => {
    const parsed = exportedEntry.safeParse(item);
    if (!parsed.success) throw refuseFile(messages.importer.badEntry(index + 1, parsed.error.issues[0]?.message ?? 'unexpected fields'));
    const entry = parsed.data;
    const createdAt = isoInstant(entry.created_at)!;
    return {
      origin: `jotline:${entry.id}`,
      originalId: entry.id,
      title: normalizeTitle(entry.title),
      content: normalizeEntryText(entry.content),
      tags: splitTags(entry.tags),
      entryDate: entry.entry_date,
      createdAt,
      updatedAt: (entry.updated_at && isoInstant(entry.updated_at)) || createdAt,
      timeZone: entry.time_zone && isValidTimeZone(entry.time_zone) ? entry.time_zone : exportZone,
      source: entry.source,
      photos: [],
      audios: [],
      leftOut: (entry.photos ?? []).map((p) => ({ reason: 'photo_not_in_file' as const, example: p.file_name ?? 'photo' })),
    };
  });
}
