import { z } from 'zod';
import { normalizeEntryText } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { invalidInput } from '../errors';
import { dayIn, isoInstant } from './dates';
import { withTags } from './text';
import type { ImportedEntry, ImportedPhoto } from './types';

// Day One's JSON export (Journal.json, alone or in the ZIP beside photos/): {metadata: {version},
// entries: [{uuid, creationDate, modifiedDate, timeZone, text, tags, starred, photos: [{identifier,
// md5, type, orderInEntry…}], location, weather…}]}. Photos live in the ZIP as photos/MD5.TYPE.

const dayOnePhoto = z.object({
  identifier: z.string().optional(),
  md5: z.string().optional(),
  type: z.string().optional(),
  orderInEntry: z.number().optional(),
});

const dayOneEntry = z.object({
  uuid: z.string().min(1, 'it has no uuid'),
  creationDate: z.string({ error: 'it has no creationDate' }),
  modifiedDate: z.string().optional(),
  timeZone: z.string().optional(),
  text: z.string().optional(),
  tags: z.array(z.string()).optional(),
  photos: z.array(dayOnePhoto).optional(),
});

/** True for a parsed JSON document shaped like a Day One export. */
export function looksLikeDayOne(json: unknown): boolean {
  if (!json || typeof json !== 'object') return false;
  const doc = json as Record<string, unknown>;
  return typeof doc.metadata === 'object' && doc.metadata !== null && Array.isArray(doc.entries);
}

/** Day One escapes Markdown punctuation in plain text (`\.`, `\!`, `\(`, `\-`…): back to the character. */
export function unescapeDayOne(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

// Where a photo, video or audio sat in the text: ![](dayone-moment://ID) or ![](dayone-moment:/video/ID).
const MOMENT = /!\[[^\]]*\]\(dayone-moment:[^)]*\)/g;

/** Title (a first-line Markdown heading) and body of an entry's text. */
export function dayOneText(raw: string): { title: string | null; content: string } {
  const text = raw.replace(/\r\n?/g, '\n').replace(MOMENT, '');
  const lines = text.replace(/^\s*\n/, '').split('\n');
  const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(lines[0] ?? '');
  const title = heading ? unescapeDayOne(heading[1]!).trim() : '';
  // A heading too long for a title stays the first line of the text.
  if (heading && title && title.length <= 200) {
    return { title, content: normalizeEntryText(unescapeDayOne(lines.slice(1).join('\n'))) };
  }
  return { title: null, content: normalizeEntryText(unescapeDayOne(heading ? [title, ...lines.slice(1)].join('\n') : text)) };
}

/**
 * The entries of one Day One journal. `photoFiles` maps a photo's md5 to its file (from the ZIP);
 * a bare Journal.json has none. `fallbackZone` dates entries whose own timeZone is missing or unknown.
 */
export function parseDayOne(json: unknown, fallbackZone: string, photoFiles: ReadonlyMap<string, ImportedPhoto> = new Map()): ImportedEntry[] {
  if (!looksLikeDayOne(json)) throw invalidInput(messages.importer.unknownFormat);
  const raw = (json as { entries: unknown[] }).entries;
  return raw.map((item, index) => {
    const parsed = dayOneEntry.safeParse(item);
    if (!parsed.success) throw invalidInput(messages.importer.badEntry(index + 1, parsed.error.issues[0]?.message ?? 'unexpected fields'));
    const entry = parsed.data;
    const createdAt = isoInstant(entry.creationDate);
    if (!createdAt) throw invalidInput(messages.importer.badEntry(index + 1, `"${entry.creationDate.slice(0, 40)}" is not a date`));
    const { title, content: text } = dayOneText(entry.text ?? '');
    const { content, tags } = withTags(text, entry.tags ?? []);
    const photos = [...(entry.photos ?? [])]
      .sort((a, b) => (a.orderInEntry ?? 0) - (b.orderInEntry ?? 0))
      .map((p) => (p.md5 ? photoFiles.get(p.md5.toLowerCase()) : undefined))
      .filter((p): p is ImportedPhoto => p !== undefined);
    return {
      origin: `dayone:${entry.uuid}`,
      title,
      content,
      tags,
      entryDate: dayIn(createdAt, entry.timeZone, fallbackZone),
      createdAt,
      updatedAt: (entry.modifiedDate && isoInstant(entry.modifiedDate)) || createdAt,
      source: 'web',
      photos,
    };
  });
}
