import { zipSync, type Zippable } from 'fflate';
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { renderJson, renderMarkdown, renderText, localDay, type ExportInput } from '../../../../shared/export-render';
import type { EntryPhoto, EntryRecording, JournalEntry } from '../../../../shared/journal';
import { messages } from '../../../../shared/messages';
import { saveBlob } from '../../../api/download';
import { ApiError } from '../../../api/errors';
import type { ExportRequest } from '../../journal/export-download';
import { SEALED_PHOTO_MARK } from '../../journal/photo-src';
import { openedRecordingBytes } from '../../voice/vault-recordings';
import { openedPhotoBytes } from './photos';
import { journalZone, wholeVaultJournal } from './vault-journal';

// A Vault journal's export, made here where it is unlocked (the server answers 409 for it): the
// same files the server writes for other journals.

const TEXT_FORMATS = {
  txt: { type: 'text/plain;charset=utf-8', render: renderText },
  md: { type: 'text/markdown;charset=utf-8', render: renderMarkdown },
  json: { type: 'application/json;charset=utf-8', render: renderJson },
} as const;

/** Day One's identifiers are 32 upper-case hex digits; ours are UUIDs, the same digits. */
const dayOneId = (uuid: string) => uuid.replace(/-/g, '').toUpperCase();
const dayOneDate = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
const escapeMarkdown = (text: string) => text.replace(/[!-/:-@[-`{-~]/g, '\\$&');
const photoType = (mimeType: string) => ({ 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' })[mimeType] ?? 'jpeg';
/** Day One's audio format (its file's extension), as the server's ZIP names it. */
const audioFormat = (mimeType: string) =>
  ({ 'audio/mp4': 'm4a', 'audio/aac': 'aac', 'audio/mpeg': 'mp3', 'audio/ogg': 'ogg', 'audio/wav': 'wav', 'audio/webm': 'webm', 'audio/amr': 'amr', 'audio/3gpp': '3gp' })[mimeType] ?? 'm4a';

interface ZippedPhoto {
  md5: string;
  type: string;
  size: number;
}

/** A recording in the ZIP: audios/MD5.FORMAT. */
interface ZippedAudio {
  md5: string;
  format: string;
  size: number;
}

/** Journal.json as the server's ZIP has it (src/server/export/zip/day-one-json.ts): Day One's format, plus what Jotline needs back. */
function journalJson(entries: readonly JournalEntry[], accountZone: string, zipped: ReadonlyMap<string, ZippedPhoto>, audios: ReadonlyMap<string, ZippedAudio>): string {
  const ordered = [...entries].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  return JSON.stringify(
    {
      metadata: { version: '1.0' },
      entries: ordered.map((entry) => {
        const photos = entry.photos.filter((p) => zipped.has(p.id));
        const recordings = (entry.recordings ?? []).filter((r) => audios.has(r.id));
        const text = [entry.title === null ? null : `# ${escapeMarkdown(entry.title)}`, entry.content ? escapeMarkdown(entry.content) : null];
        if (photos.length) text.push(photos.map((p) => `![](dayone-moment://${dayOneId(p.id)})`).join('\n'));
        return {
          uuid: dayOneId(entry.id),
          creationDate: dayOneDate(entry.created_at),
          modifiedDate: dayOneDate(entry.updated_at),
          timeZone: entry.time_zone ?? accountZone,
          starred: entry.tags.some((t) => t.toLowerCase() === 'starred'),
          text: text.filter((p) => p !== null).join('\n\n'),
          tags: entry.tags,
          ...(photos.length && {
            photos: photos.map((photo, order) => {
              const file = zipped.get(photo.id)!;
              return { identifier: dayOneId(photo.id), md5: file.md5, type: file.type, orderInEntry: order, fileSize: file.size, filename: photo.file_name, date: dayOneDate(entry.created_at) };
            }),
          }),
          ...(recordings.length && {
            audios: recordings.map((recording) => {
              const file = audios.get(recording.id)!;
              return {
                identifier: dayOneId(recording.id),
                md5: file.md5,
                format: file.format,
                fileSize: file.size,
                duration: recording.duration_seconds,
                // The API does not say when a recording was made: the entry's moment, as for photos.
                date: dayOneDate(entry.created_at),
                ...(recording.transcript_status === 'done' && recording.transcript !== null && { transcription: recording.transcript }),
              };
            }),
          }),
          jotline: { id: entry.id, entry_date: entry.entry_date, source: entry.source, created_at: entry.created_at, updated_at: entry.updated_at },
        };
      }),
    },
    null,
    2,
  );
}

/** A photo's bytes, opened here when sealed (a journal being sealed or opened has both kinds); null when it cannot be read. */
function photoBytes(photo: EntryPhoto): Promise<Uint8Array | null> {
  if (photo.url.endsWith(SEALED_PHOTO_MARK)) return openedPhotoBytes(photo.url).catch(() => null);
  return fetch(photo.url).then((r) => (r.ok ? r.arrayBuffer().then((b) => new Uint8Array(b)) : null), () => null);
}

/** A recording's audio, opened here when sealed; null when it cannot be read. */
function recordingBytes(recording: EntryRecording): Promise<Uint8Array | null> {
  if (recording.url.endsWith(SEALED_PHOTO_MARK)) return openedRecordingBytes(recording.url).catch(() => null);
  return fetch(recording.url).then((r) => (r.ok ? r.arrayBuffer().then((b) => new Uint8Array(b)) : null), () => null);
}

/** The ZIP: photos/MD5.TYPE and audios/MD5.FORMAT (opened here, one at a time) and Journal.json naming them. */
async function zipOf(entries: readonly JournalEntry[], input: ExportInput): Promise<Blob> {
  const files: Zippable = {};
  const zipped = new Map<string, ZippedPhoto>();
  const audios = new Map<string, ZippedAudio>();
  for (const entry of entries) {
    for (const photo of entry.photos) {
      const bytes = await photoBytes(photo);
      // A photo that cannot be read is left out of the ZIP and of Journal.json, as on the server.
      if (!bytes) continue;
      const file = { md5: bytesToHex(md5(bytes)), type: photoType(photo.mime_type), size: bytes.length };
      zipped.set(photo.id, file);
      // Photos are compressed already.
      files[`photos/${file.md5}.${file.type}`] = [bytes, { level: 0 }];
    }
    for (const recording of entry.recordings ?? []) {
      const bytes = await recordingBytes(recording);
      // Left out when it cannot be read, as a photo is.
      if (!bytes) continue;
      const file = { md5: bytesToHex(md5(bytes)), format: audioFormat(recording.mime_type), size: bytes.length };
      audios.set(recording.id, file);
      // Audio is compressed already.
      files[`audios/${file.md5}.${file.format}`] = [bytes, { level: 0 }];
    }
  }
  files['Journal.json'] = new TextEncoder().encode(journalJson(entries, input.timezone, zipped, audios));
  return new Blob([zipSync(files, { level: 6 })], { type: 'application/zip' });
}

/** Exports the opened journal (or the days from..to) as one file, saved from the browser; answers its name. */
export async function exportInBrowser(request: ExportRequest): Promise<string> {
  const entries = (await wholeVaultJournal()).filter((e) => (!request.from || e.entry_date >= request.from) && (!request.to || e.entry_date <= request.to));
  if (entries.length === 0) throw new ApiError(400, 'INVALID_INPUT', request.from || request.to ? messages.entries.exportEmptyRange : messages.entries.exportEmpty);
  const timezone = (await journalZone()) ?? 'UTC';
  const exportedAt = new Date();
  const input: ExportInput = { entries, timezone, exportedAt, today: localDay(exportedAt, timezone), from: request.from || undefined, to: request.to || undefined, photos: request.photos };
  const fileName = `journal-export-${input.today}.${request.format}`;
  let blob: Blob;
  // pdf-lib and the fonts load only for a PDF.
  if (request.format === 'pdf') blob = await (await import('./pdf-export')).journalPdf({ ...input, entries }, photoBytes);
  else if (request.format === 'zip') blob = await zipOf(entries, input);
  else blob = new Blob([TEXT_FORMATS[request.format].render(input)], { type: TEXT_FORMATS[request.format].type });
  saveBlob(blob, fileName);
  return fileName;
}
