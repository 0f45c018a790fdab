/**
 * The journal's rules without zod: limits, text clean-up and photo messages. The web app imports them
 * from here so its pages do not download zod; journal.ts re-exports them beside the request schemas.
 */

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
/** zip: everything, photos too, in Day One's format (export/zip/). */
export const EXPORT_FORMATS = ['txt', 'pdf', 'json', 'md', 'zip'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Whitespace as the journal keeps it: runs of spaces and tabs become one space, line breaks stay
 * (CRLF becomes LF) but a run of blank lines becomes one (paragraphs stay apart, gaps do not
 * grow), spaces touching a line break go, and the whole is trimmed.
 */
export function normalizeEntryText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
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
