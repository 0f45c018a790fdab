import type { Readable } from 'node:stream';
import type { ExportQuery } from '../../shared/journal';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { invalidInput } from '../errors';
import type { CachedEntry } from '../journal/cache';
import { localDate } from '../journal/dates';
import { loadOwner } from '../journal/owner';
import { takeExportAllowance } from './allowance';
import type { ExportInput } from './format';
import { renderJson } from './json';
import { renderMarkdown } from './markdown';
import { newPdfDocument, renderPdf } from './pdf';
import { renderText } from './text';

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: string | Readable;
}

const FORMATS = {
  txt: { contentType: 'text/plain; charset=utf-8', render: renderText },
  md: { contentType: 'text/markdown; charset=utf-8', render: renderMarkdown },
  json: { contentType: 'application/json; charset=utf-8', render: renderJson },
} as const;

/** Newest day first; within a day, the latest written first. */
const newestFirst = (a: CachedEntry, b: CachedEntry) =>
  a.entry_date !== b.entry_date ? (a.entry_date < b.entry_date ? 1 : -1) : a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0;

/**
 * GET /api/export: the journal (or the days from..to, both inclusive) as one file. Needs only
 * sign-in, so a user whose access ended can still take their journal away. Rate-limited (see
 * allowance.ts): generous for text formats, tight for PDFs that embed photos.
 */
export async function exportJournal(ctx: AppContext, userId: string, query: ExportQuery): Promise<ExportFile> {
  const owner = await loadOwner(ctx, userId);
  const entries = (await ctx.journalCache.entries(userId))
    .filter((e) => (!query.from || e.entry_date >= query.from) && (!query.to || e.entry_date <= query.to))
    .sort(newestFirst);
  if (entries.length === 0) throw invalidInput(query.from || query.to ? messages.entries.exportEmptyRange : messages.entries.exportEmpty);
  const embedsPhotos = query.format === 'pdf' && query.photos && entries.some((e) => e.photos.length > 0);
  await takeExportAllowance(ctx, userId, embedsPhotos);

  const exportedAt = ctx.clock.now();
  const input: ExportInput = { entries, timezone: owner.timezone, exportedAt, today: localDate(exportedAt, owner.timezone), from: query.from, to: query.to, photos: query.photos };
  const fileName = `journal-export-${input.today}.${query.format}`;
  if (query.format === 'pdf') {
    const doc = newPdfDocument();
    // The document streams out while it is written; a failure part-way ends the download.
    renderPdf(doc, input, ctx.storage).catch((error: unknown) => doc.destroy(error as Error));
    return { fileName, contentType: 'application/pdf', body: doc };
  }
  const format = FORMATS[query.format];
  return { fileName, contentType: format.contentType, body: format.render(input) };
}
