import { z } from 'zod';
import { messages } from '../messages';
import { refuseFile } from './file-error';
import { parseJrnlDate } from './jrnl-dates';
import { jrnlEntry } from './jrnl';
import type { ImportedEntry } from './types';

// jrnl's JSON export (jrnl --export json, plugins/exporter/json.py): {tags: {"@tag": count},
// entries: [{title, body, date: "YYYY-MM-DD", time: "HH:MM", tags: ["@tag"], starred}]}; Day One
// journals add uuid and creator. Times are wall-clock times, as in the text journal.

const jrnlJsonEntry = z.object({
  title: z.string({ error: 'it has no title' }),
  body: z.string().default(''),
  date: z.string({ error: 'it has no date' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'its date is not YYYY-MM-DD'),
  time: z.string().regex(/^\d{1,2}:\d{2}$/, 'its time is not HH:MM').default('00:00'),
  tags: z.array(z.string()).default([]),
  starred: z.boolean().default(false),
});

/** True for a parsed JSON document shaped like jrnl's export. */
export function looksLikeJrnlJson(json: unknown): boolean {
  if (!json || typeof json !== 'object') return false;
  const doc = json as Record<string, unknown>;
  return typeof doc.tags === 'object' && doc.tags !== null && !Array.isArray(doc.tags) && Array.isArray(doc.entries) && !('metadata' in doc);
}

export function parseJrnlJson(json: unknown, timeZone: string, now: Date): ImportedEntry[] {
  return (json as { entries: unknown[] }).entries.map((item, index) => {
    const parsed = jrnlJsonEntry.safeParse(item);
    if (!parsed.success) throw refuseFile(messages.importer.badEntry(index + 1, parsed.error.issues[0]?.message ?? 'unexpected fields'));
    const entry = parsed.data;
    const at = parseJrnlDate(`${entry.date} ${entry.time}`, 'dmy', now);
    if (!at || at === 'invalid') throw refuseFile(messages.importer.badEntry(index + 1, `"${entry.date} ${entry.time}" is not a date`));
    const tags = entry.tags.map((tag) => tag.replace(/^@/, '').toLowerCase());
    return jrnlEntry(at, { title: entry.title, body: entry.body, tags, starred: entry.starred }, timeZone);
  });
}
