import { z } from 'zod';
import { ENTRY_SOURCES, normalizeEntryText } from '../journal-rules';
import type { ImportReason } from '../import';
import { messages } from '../messages';
import { refuseFile } from './file-error';
import { isCalendarDay } from '../validation';
import { isValidTimeZone } from '../zones';
import { dayIn, isoInstant } from './dates';
import { importedText } from './text';
import type { ImportedAudio, ImportedEntry, ImportedPhoto, LeftOut } from './types';

// Day One's JSON export (Journal.json, alone or in the ZIP): {metadata: {version}, entries: [{uuid,
// creationDate, modifiedDate, timeZone, text, tags, starred, photos: [{identifier, md5, type,
// orderInEntry…}], videos, audios: [{identifier, md5, format, duration, date, transcription…}],
// pdfAttachments, location, weather…}]}. In the ZIP the files are photos/MD5.TYPE, videos/MD5.TYPE,
// audios/MD5.FORMAT and pdfs/MD5.pdf. Our own ZIP export is this format too, each entry adding
// `jotline` (its id, day, source and exact times), so it comes back whole.

// Photos and videos name their file type `type`, audio recordings `format`.
const attachment = z.object({
  identifier: z.string().optional(),
  md5: z.string().optional(),
  type: z.string().optional(),
  format: z.string().optional(),
  /** The name the file had when it was added. */
  filename: z.string().optional(),
  orderInEntry: z.number().optional(),
  // A recording's: when it was recorded, and its transcript. Anything else there is passed over.
  date: z.unknown().optional(),
  transcription: z.unknown().optional(),
});

const dayOneEntry = z.object({
  uuid: z.string().min(1, 'it has no uuid'),
  creationDate: z.string({ error: 'it has no creationDate' }),
  modifiedDate: z.string().optional(),
  timeZone: z.string().optional(),
  text: z.string().optional(),
  tags: z.array(z.string()).optional(),
  starred: z.boolean().optional(),
  photos: z.array(attachment).optional(),
  videos: z.array(attachment).optional(),
  audios: z.array(attachment).optional(),
  pdfAttachments: z.array(attachment).optional(),
  jotline: z
    .object({
      id: z.string(),
      entry_date: z.string().refine(isCalendarDay),
      source: z.enum(ENTRY_SOURCES),
      created_at: z.string().refine((v) => isoInstant(v) !== null),
      updated_at: z.string().refine((v) => isoInstant(v) !== null),
    })
    .optional(),
});
type DayOneEntry = z.infer<typeof dayOneEntry>;

/** The ZIP's attachment files by folder and md5 (lower case); null for a Journal.json alone. */
type ArchiveFiles = Map<string, string> | null;

/** The key of a file in ArchiveFiles: "photos/0a1b…". */
export const fileKey = (folder: string, md5: string) => `${folder}/${md5.toLowerCase()}`;

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

// Where a photo, video, audio or PDF sat in the text: ![](dayone-moment://ID), ![](dayone-moment:/video/ID).
const MOMENT = /!\[[^\]]*\]\(dayone-moment:[^)]*\)/g;

/** Title (a first-line Markdown heading) and body of an entry's text. */
export function dayOneText(raw: string): { title: string | null; content: string } {
  const text = raw.replace(/\r\n?/g, '\n').replace(MOMENT, '');
  const lines = text.replace(/^\s*\n/, '').split('\n');
  // An ATX heading; a closing run of #s needs a space before it (an escaped \# ends the title).
  const heading = /^#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(lines[0] ?? '');
  if (!heading) return { title: null, content: normalizeEntryText(unescapeDayOne(text)) };
  return { title: unescapeDayOne(heading[1]!).trim() || null, content: normalizeEntryText(unescapeDayOne(lines.slice(1).join('\n'))) };
}

/** A 32-hex Day One identifier back to the UUID it was made from (our own export), else null. */
function uuidFromHex(hex: string): string | null {
  const h = hex.toLowerCase();
  return /^[0-9a-f]{32}$/.test(h) ? `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}` : null;
}

type AttachmentKey = 'videos' | 'audios' | 'pdfAttachments';

const LEFT_OUT: Array<{ key: Exclude<AttachmentKey, 'audios'>; reason: ImportReason }> = [
  { key: 'videos', reason: 'video' },
  { key: 'pdfAttachments', reason: 'pdf' },
];

const FOLDERS: Record<AttachmentKey, string> = { videos: 'videos', audios: 'audios', pdfAttachments: 'pdfs' };

/**
 * A video, recording or PDF as the user knows it: its name in the ZIP when it is there, else its
 * md5 and extension. Day One records a recording's codec (format "aac") and stores it as .m4a.
 */
function attachmentName(key: AttachmentKey, file: z.infer<typeof attachment>, files: ArchiveFiles): string {
  const inArchive = file.md5 && files ? files.get(fileKey(FOLDERS[key], file.md5)) : undefined;
  if (inArchive) return inArchive.slice(inArchive.lastIndexOf('/') + 1);
  const extension = file.type ?? (file.format?.toLowerCase() === 'aac' ? 'm4a' : file.format) ?? '';
  return `${file.md5 ?? file.identifier ?? key}.${extension}`.replace(/\.$/, '');
}

function photosOf(entry: DayOneEntry, files: ArchiveFiles, leftOut: LeftOut[]): ImportedPhoto[] {
  const photos: ImportedPhoto[] = [];
  for (const photo of [...(entry.photos ?? [])].sort((a, b) => (a.orderInEntry ?? 0) - (b.orderInEntry ?? 0))) {
    const stored = `${photo.md5 ?? photo.identifier ?? 'photo'}.${photo.type ?? 'jpeg'}`;
    const path = photo.md5 && files ? files.get(fileKey('photos', photo.md5)) : undefined;
    if (files && !path) {
      leftOut.push({ reason: 'photo_missing', example: stored });
      continue;
    }
    const identity = photo.identifier ?? photo.md5 ?? stored;
    photos.push({
      path: path ?? null,
      fileName: photo.filename ?? stored,
      origin: `dayone-photo:${entry.uuid}:${identity}`,
      originalId: entry.jotline && photo.identifier ? (uuidFromHex(photo.identifier) ?? undefined) : undefined,
    });
  }
  return photos;
}

/**
 * The entry's voice recordings, in their order in the entry; those named but missing from the ZIP
 * are counted. A transcript the entry's text already holds (our own export writes it there as well)
 * is marked so, to be kept on the recording without being added to the text again.
 */
function audiosOf(entry: DayOneEntry, content: string, files: ArchiveFiles, leftOut: LeftOut[]): ImportedAudio[] {
  const audios: ImportedAudio[] = [];
  for (const audio of [...(entry.audios ?? [])].sort((a, b) => (a.orderInEntry ?? 0) - (b.orderInEntry ?? 0))) {
    const fileName = attachmentName('audios', audio, files);
    const path = audio.md5 && files ? files.get(fileKey('audios', audio.md5)) : undefined;
    if (files && !path) {
      leftOut.push({ reason: 'audio_missing', example: fileName });
      continue;
    }
    const transcript = typeof audio.transcription === 'string' ? normalizeEntryText(audio.transcription) : null;
    audios.push({
      path: path ?? null,
      fileName,
      sourceKey: `import:${entry.uuid}:${audio.identifier ?? audio.md5 ?? fileName}`,
      originalId: entry.jotline && audio.identifier ? (uuidFromHex(audio.identifier) ?? undefined) : undefined,
      transcript,
      transcriptInText: !!transcript && content.includes(transcript),
      recordedAt: typeof audio.date === 'string' ? isoInstant(audio.date) : null,
    });
  }
  return audios;
}

function readEntry(entry: DayOneEntry, index: number, fallbackZone: string, files: ArchiveFiles): ImportedEntry {
  const created = isoInstant(entry.creationDate);
  if (!created) throw refuseFile(messages.importer.badEntry(index + 1, `"${entry.creationDate.slice(0, 40)}" is not a date`));
  const timeZone = entry.timeZone && isValidTimeZone(entry.timeZone) ? entry.timeZone : fallbackZone;
  const { title, content } = dayOneText(entry.text ?? '');
  const leftOut: LeftOut[] = [];
  for (const { key, reason } of LEFT_OUT) {
    for (const file of entry[key] ?? []) leftOut.push({ reason, example: attachmentName(key, file, files) });
  }
  // Starred entries carry the tag "starred" (and go back out as starred).
  const tags = [...(entry.tags ?? []), ...(entry.starred ? ['starred'] : [])];
  const own = entry.jotline;
  return {
    origin: `dayone:${entry.uuid}`,
    ...importedText(title, content, tags),
    entryDate: own?.entry_date ?? dayIn(created, timeZone, fallbackZone),
    createdAt: own ? isoInstant(own.created_at)! : created,
    updatedAt: own ? isoInstant(own.updated_at)! : (entry.modifiedDate && isoInstant(entry.modifiedDate)) || created,
    timeZone,
    source: own?.source ?? 'web',
    photos: photosOf(entry, files, leftOut),
    audios: audiosOf(entry, content, files, leftOut),
    leftOut,
    originalId: own?.id,
  };
}

/**
 * The entries of one Day One journal. `files` lists the ZIP's attachments (null for a Journal.json
 * alone, whose photos are then only named); `fallbackZone` dates entries without a known zone.
 */
export function parseDayOne(json: unknown, fallbackZone: string, files: ArchiveFiles = null): ImportedEntry[] {
  if (!looksLikeDayOne(json)) throw refuseFile(messages.importer.unknownFormat);
  return (json as { entries: unknown[] }).entries.map((item, index) => {
    const parsed = dayOneEntry.safeParse(item);
    if (!parsed.success) throw refuseFile(messages.importer.badEntry(index + 1, parsed.error.issues[0]?.message ?? 'unexpected fields'));
    return readEntry(parsed.data, index, fallbackZone, files);
  });
}

/** True when the entries came from our own export (whole: not to be split again). */
export const isOwnExport = (entries: readonly ImportedEntry[]) => entries.length > 0 && entries.every((e) => e.originalId !== undefined);
