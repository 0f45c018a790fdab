import { z } from 'zod';
import { messages } from './messages';

/** Journal limits (spec section 9), shared by the entry form and the server. */
export const ENTRY_CONTENT_MAX = 10_000;
export const ENTRY_TITLE_MAX = 200;
export const TAG_MAX_LENGTH = 50;
export const TAGS_MAX = 10;
export const PHOTOS_PER_ENTRY_MAX = 10;
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const PHOTOS_PER_ENTRY_MAX_BYTES = 10 * 1024 * 1024;
export const PHOTO_TYPES = ['jpeg', 'jpg', 'png', 'gif', 'webp'] as const;
/** Signed photo links stay valid this long. */
export const MEDIA_LINK_TTL_SECONDS = 3600;
/** MMS media fetched per text message (DESIGN section 7). */
export const SMS_MEDIA_MAX = 10;
export const SMS_MEDIA_MAX_BYTES = 5 * 1024 * 1024;
export const ENTRIES_PAGE_DEFAULT = 20;
export const ENTRIES_PAGE_MAX = 100;
/** The form's counter turns orange above this share of the limit. */
export const CONTENT_WARNING_RATIO = 0.9;

export const ENTRY_SOURCES = ['web', 'sms'] as const;
export type EntrySource = (typeof ENTRY_SOURCES)[number];
export const EXPORT_FORMATS = ['txt', 'pdf', 'json', 'md'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Whitespace as the journal keeps it: runs of spaces and tabs become one space, line breaks stay
 * (CRLF becomes LF), spaces touching a line break go, and the whole is trimmed.
 */
export function normalizeEntryText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
}

/** A title is one line: every whitespace run becomes one space; cut to the limit. */
export function normalizeTitle(title: string | null | undefined): string | null {
  const clean = (title ?? '').replace(/\s+/g, ' ').trim().slice(0, ENTRY_TITLE_MAX).trim();
  return clean === '' ? null : clean;
}

/**
 * Tags from a comma list (or a list of such strings): split by commas, trimmed, empty ones
 * dropped, each cut to 50 characters, duplicates (any case) dropped, at most 10.
 */
export function splitTags(input: string | readonly string[] | null | undefined): string[] {
  const raw = typeof input === 'string' ? [input] : (input ?? []);
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const piece of raw.flatMap((s) => s.split(','))) {
    const tag = piece.replace(/\s+/g, ' ').trim().slice(0, TAG_MAX_LENGTH).trim();
    const key = tag.toLowerCase();
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
    if (tags.length === TAGS_MAX) break;
  }
  return tags;
}

export function countWords(text: string): number {
  const words = text.trim().split(/\s+/);
  return words[0] === '' ? 0 : words.length;
}

/** Megabytes as the photo messages show them: one decimal place. */
export function formatMegabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/** 'Cannot add photos. Total size would be X MB (currently Y MB, max 10MB per entry)'. */
export function photosWouldExceedMessage(totalBytes: number, currentBytes: number): string {
  return `Cannot add photos. Total size would be ${formatMegabytes(totalBytes)} MB (currently ${formatMegabytes(currentBytes)} MB, max 10MB per entry)`;
}

/** 'Total photo size too large: X MB (max 10MB per entry)', for a new entry's photos. */
export function photosTooLargeMessage(totalBytes: number): string {
  return `Total photo size too large: ${formatMegabytes(totalBytes)} MB (max 10MB per entry)`;
}

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be YYYY-MM-DD');
const tagsInput = z.union([z.string(), z.array(z.string())]);

/** POST /api/entries (JSON, or multipart fields beside the photos). */
export const createEntrySchema = z.object({
  /** The entry's text; whitespace is normalised before the length check. */
  content: z.string().default('').transform(normalizeEntryText).pipe(z.string().max(ENTRY_CONTENT_MAX, messages.entries.contentTooLong)),
  /** Optional; cut to 200 characters. */
  title: z.string().nullish().transform(normalizeTitle),
  /** Comma list or list of tags. */
  tags: tagsInput.nullish().transform(splitTags),
  /** The local day the entry belongs to; today in the profile's timezone when absent. */
  entry_date: isoDate.optional(),
});
export type CreateEntryInput = z.infer<typeof createEntrySchema>;

/** PATCH /api/entries/:id: only the fields sent change. */
export const updateEntrySchema = z.object({
  /**
   * The new text. Its length is checked by the service: an entry already over ENTRY_CONTENT_MAX (texts
   * appended before continuation entries existed) may be saved as long as it does not grow.
   */
  content: z.string().transform(normalizeEntryText).optional(),
  // nullable, not nullish: an absent field must stay undefined ("leave as is"), null clears it.
  title: z.string().nullable().transform(normalizeTitle).optional(),
  tags: tagsInput.nullable().transform(splitTags).optional(),
});
export type UpdateEntryInput = z.infer<typeof updateEntrySchema>;

/** GET /api/entries query: the spec's search filter plus paging. */
export const entryFilterSchema = z.object({
  /** Words to find in content, title or tags (case-insensitive); "quoted words" match as a phrase. */
  q: z.string().max(500).optional(),
  /** First and last local day, both inclusive. */
  from: isoDate.optional(),
  to: isoDate.optional(),
  /** Comma list; an entry must carry every one (any case). */
  tags: z.string().optional().transform((v) => (v ? splitTags(v) : [])),
  source: z.enum(['all', ...ENTRY_SOURCES]).default('all'),
  hasPhotos: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
  limit: z.coerce.number().int().min(1).max(ENTRIES_PAGE_MAX).default(ENTRIES_PAGE_DEFAULT),
  /** Opaque; from the previous page's nextCursor. */
  cursor: z.string().max(200).optional(),
});
export type EntryFilter = z.infer<typeof entryFilterSchema>;

/** GET /api/export query. */
export const exportQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS).default('txt'),
  from: isoDate.optional(),
  to: isoDate.optional(),
  photos: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
});
export type ExportQuery = z.infer<typeof exportQuerySchema>;

export interface EntryPhoto {
  id: string;
  /** Signed link to the full image, valid up to an hour. */
  url: string;
  /** Signed link to a small webp rendition for lists. */
  thumbnail_url: string;
  file_name: string;
  file_size: number;
  mime_type: string;
}

export interface JournalEntry {
  id: string;
  title: string | null;
  content: string;
  source: EntrySource;
  entry_date: string;
  created_at: string;
  updated_at: string;
  tags: string[];
  word_count: number;
  photos: EntryPhoto[];
}

export interface EntriesPage {
  entries: JournalEntry[];
  nextCursor: string | null;
}

export interface JournalStats {
  current_streak: number;
  total_days: number;
  total_photos: number;
  total_words: number;
}
