/** Imports (POST /api/import, GET /api/imports/:id): what the web app and the server both know. */

/** Upload limits: a ZIP (Day One with photos) may be large; JSON and text journals are small. */
export const IMPORT_MAX_ZIP_BYTES = 100 * 1024 * 1024;
export const IMPORT_MAX_TEXT_BYTES = 20 * 1024 * 1024;

export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** Why an entry, a photo, a voice recording or another attachment of the file was not added (messages.importer.reasons). */
export const IMPORT_REASONS = [
  'already_imported',
  'repeated',
  'empty',
  'photo_missing',
  'photo_not_in_file',
  'photo_unsupported',
  'photo_over_limit',
  'audio_missing',
  'audio_not_in_file',
  'audio_unreadable',
  'audio_over_limit',
  'video',
  'pdf',
  // Imported, but named: an entry dated after today sits at the top of the journal.
  'future_date',
] as const;
export type ImportReason = (typeof IMPORT_REASONS)[number];

/** Reasons that count entries (the rest count photos or other attachments). */
export const ENTRY_REASONS: ReadonlySet<ImportReason> = new Set(['already_imported', 'repeated', 'empty']);

export interface ImportReasonCount {
  reason: ImportReason;
  count: number;
  /** A few of them: an entry's day and title, or a file name. */
  examples: string[];
}

/** GET /api/imports/:id, and the body of POST /api/import's 202 with its id. */
export interface ImportProgress {
  id: string;
  status: ImportStatus;
  /** Entries in the file (an entry past the entry limit counts once per part). */
  total: number;
  imported: number;
  skipped: number;
  photos_imported: number;
  photos_skipped: number;
  reasons: ImportReasonCount[];
  /** Why a failed import failed, in the user's words. */
  error: string | null;
}

/** The realtime event: counts only, never journal text. */
export interface ImportProgressEvent {
  type: 'import.progress';
  import_id: string;
  status: ImportStatus;
  total: number;
  imported: number;
  skipped: number;
  photos_imported: number;
  photos_skipped: number;
}
