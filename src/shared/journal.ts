import { z } from 'zod';
import {
  ENTRIES_PAGE_DEFAULT,
  ENTRIES_PAGE_MAX,
  ENTRY_CONTENT_MAX,
  ENTRY_SOURCES,
  type EntrySource,
  PHOTOS_PER_ENTRY_MAX,
  EXPORT_FORMATS,
  normalizeEntryText,
  normalizeTitle,
  splitTags,
} from './journal-rules';
import { messages } from './messages';
import { isCalendarDay } from './validation';
import { vaultMessages } from './vault-messages';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** One sealed segment, as base64: an entry's 10,000 characters at 4 UTF-8 bytes each, its title and tags, and the box. */
const SEALED_SEGMENT_MAX_CHARS = 64_000;
/** Segments one web write sends (the browser writes one; imports may send a few). */
const SEALED_SEGMENTS_PER_WRITE = 20;

export * from './journal-rules';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be YYYY-MM-DD')
  .refine(isCalendarDay, { error: (issue) => `There is no day ${String(issue.input)}: dates must be real days, written YYYY-MM-DD` });
const tagsInput = z.union([z.string(), z.array(z.string())]);

const oneOrMore = z.union([z.string(), z.array(z.string())]).transform((value) => (typeof value === 'string' ? [value] : value));

/** A Vault entry's words (DESIGN 6): base64 sealed boxes made in the browser; a form field may come once or repeated. */
const sealedSegments = oneOrMore.pipe(z.array(z.string().max(SEALED_SEGMENT_MAX_CHARS, vaultMessages.errors.segmentTooLong).regex(BASE64, vaultMessages.errors.segmentInvalid)).min(1, vaultMessages.errors.segmentInvalid).max(SEALED_SEGMENTS_PER_WRITE));
/**
 * A Vault entry's photos, sealed in the browser (multipart): files `photos` (each image) and `thumbs`
 * (each thumbnail), and these fields, in the same order: each photo's sealed name and its type.
 */
export const SEALED_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
const sealedPhotoFields = {
  photo_names: oneOrMore.pipe(z.array(z.string().min(1).max(1_000).regex(BASE64, vaultMessages.errors.sealedPhotoInvalid)).max(PHOTOS_PER_ENTRY_MAX)).optional(),
  photo_types: oneOrMore.pipe(z.array(z.enum(SEALED_PHOTO_TYPES, vaultMessages.errors.sealedPhotoInvalid)).max(PHOTOS_PER_ENTRY_MAX)).optional(),
};
/** POST /api/entries/:id/photos fields besides the files (a Vault entry's sealed photos). */
export const addPhotosFieldsSchema = z.object(sealedPhotoFields);

/** Counted in the browser for a Vault entry (the server cannot count sealed words); a form sends it as text. */
const sealedWordCount = z.coerce.number().int().min(0).max(1_000_000);

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
  /** A Vault user's entry, sealed in the browser; content, title and tags are then left out. */
  sealed: sealedSegments.optional(),
  word_count: sealedWordCount.optional(),
  ...sealedPhotoFields,
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
  /** A Vault entry's new words: its segments replaced by these (one, as the browser writes an edit). */
  sealed: sealedSegments.optional(),
  word_count: sealedWordCount.optional(),
  /**
   * The entry's `version` the edit was made from: when the entry has changed since (a text arrived,
   * another tab saved), nothing is written and the answer is 409 ENTRY_CHANGED with the entry as it is.
   */
  base_version: z.number().int().min(0).optional(),
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
  /** `voice`: entries that hold a recording. */
  source: z.enum(['all', ...ENTRY_SOURCES, 'voice']).default('all'),
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

/** How far a recording's transcription has come: `failed` is shown as "not transcribed" and can be asked for again. */
export const TRANSCRIPT_STATUSES = ['pending', 'done', 'failed'] as const;
export type TranscriptStatus = (typeof TRANSCRIPT_STATUSES)[number];

/** A voice note or a call's recording in an entry (DESIGN 6). */
export interface EntryRecording {
  id: string;
  /** Signed link to the audio, valid up to an hour (a vault user's serves sealed bytes). */
  url: string;
  mime_type: string;
  duration_seconds: number;
  /** Null while pending, when not transcribed, and always for a vault user (see `sealed`). */
  transcript: string | null;
  transcript_status: TranscriptStatus;
  /** A vault user's: base64 crypto_box_seal to the vault's public key opening to JSON {"transcript": string | null}. */
  sealed?: string;
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
  /** The IANA zone the entry's time is shown in: the account's as it was written, or an imported entry's own. */
  time_zone?: string | null;
  /** Changes with every write to the entry, texts included; PATCH names it as `base_version`. */
  version: number;
  photos: EntryPhoto[];
  /** Voice notes and calls, oldest first; the server always sends it (absent only in older fixtures). */
  recordings?: EntryRecording[];
}

export interface EntriesPage {
  entries: JournalEntry[];
  nextCursor: string | null;
}

/**
 * A Vault entry as the server sends it (DESIGN 6): no words, only sealed segments the browser opens
 * (docs/vault.md); its photos' `file_name` is sealed too, and their links serve sealed bytes.
 */
export interface SealedJournalEntry extends Omit<JournalEntry, 'content' | 'title' | 'tags'> {
  content: null;
  title: null;
  tags: never[];
  sealed: string[];
}

export type ServedEntry = JournalEntry | SealedJournalEntry;

/** GET /api/entries and GET /api/on-this-day as sent: `vault` is there (true) when the user has a Vault. */
export interface ServedEntriesPage {
  entries: ServedEntry[];
  nextCursor: string | null;
  vault?: true;
}

export interface JournalStats {
  current_streak: number;
  total_days: number;
  total_photos: number;
  total_words: number;
}
