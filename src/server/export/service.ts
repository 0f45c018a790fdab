import type { Readable } from 'node:stream';
import type { ExportQuery } from '../../shared/journal';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { invalidInput, rateLimited } from '../errors';
import { localDate } from '../journal/dates';
import { loadOwner } from '../journal/owner';
import { takeExportAllowance } from './allowance';
import { renderJson, renderMarkdown, renderText } from '../../shared/export-render';
import type { ExportInput } from './format';
import { pdfWorkers, zipWorkers } from './pdf-worker/pool';
import { readPhotoForExport } from './pdf-worker/read-photo';
import { readRecordingAudio } from '../voice/recordings';

interface ExportFile {
  fileName: string;
  contentType: string;
  body: string | Readable;
}

/** Formats made in worker threads (the PDF renderer, yazl), streamed out as they are written. */
const MADE_BY_WORKERS = {
  pdf: { workers: pdfWorkers, contentType: 'application/pdf', busy: messages.pdfExport.busy },
  zip: { workers: zipWorkers, contentType: 'application/zip', busy: messages.zipExport.busy },
} as const;

const FORMATS = {
  txt: { contentType: 'text/plain; charset=utf-8', render: renderText },
  md: { contentType: 'text/markdown; charset=utf-8', render: renderMarkdown },
  json: { contentType: 'application/json; charset=utf-8', render: renderJson },
} as const;

/**
 * GET /api/export: the journal (or the days from..to, both inclusive) as one file. Needs only
 * sign-in, so a user whose access ended can still take their journal away. Rate-limited (see
 * allowance.ts): generous for text formats, tight for PDFs that embed photos.
 */
export async function exportJournal(ctx: AppContext, userId: string, query: ExportQuery): Promise<ExportFile> {
  const owner = await loadOwner(ctx, userId);
  // In the journal's own order (shared/journal-order.ts): newest day first, a day's SMS parts in order.
  const entries = (await ctx.journalCache.entries(userId)).filter((e) => (!query.from || e.entry_date >= query.from) && (!query.to || e.entry_date <= query.to));
  if (entries.length === 0) throw invalidInput(query.from || query.to ? messages.entries.exportEmptyRange : messages.entries.exportEmpty);
  const embedsPhotos = query.format === 'pdf' && query.photos && entries.some((e) => e.photos.length > 0);
  // Checked before the allowance is spent: a busy moment must not use up the user's exports.
  const made = query.format === 'pdf' || query.format === 'zip' ? MADE_BY_WORKERS[query.format] : null;
  if (made && !made.workers.hasRoom()) throw rateLimited(made.busy);
  await takeExportAllowance(ctx, userId, embedsPhotos);

  const exportedAt = ctx.clock.now();
  const input: ExportInput = { entries, timezone: owner.timezone, exportedAt, today: localDate(exportedAt, owner.timezone), from: query.from, to: query.to, photos: query.photos };
  const fileName = `journal-export-${input.today}.${query.format}`;
  if (query.format === 'pdf' || query.format === 'zip') {
    const made = MADE_BY_WORKERS[query.format];
    // A failure part-way ends the download. Checked again, with no wait before render: other
    // exports may have filled the queue meanwhile.
    if (!made.workers.hasRoom()) throw rateLimited(made.busy);
    // A recording's file is read as the voice notes are (decrypted from rest); anything else is a photo.
    const recordings = new Map(entries.flatMap((e) => e.recordings.map((r) => [r.file_path, r] as const)));
    const readFile = (key: string) => {
      const recording = recordings.get(key);
      return recording ? readRecordingAudio(ctx, recording).catch(() => null) : readPhotoForExport(ctx, key);
    };
    return { fileName, contentType: made.contentType, body: made.workers.render({ input, readPhoto: readFile }) };
  }
  const format = FORMATS[query.format];
  return { fileName, contentType: format.contentType, body: format.render(input) };
}
