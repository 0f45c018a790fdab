import { zipSync, type Zippable } from 'fflate';
import { md5 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { audioFormat, journalJson, photoType, type ZippedAudio, type ZippedPhoto } from '../../../../shared/day-one-export';
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
