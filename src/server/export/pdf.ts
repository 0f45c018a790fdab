import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { JournalPhotoRow } from '../db/tables';
import type { PhotoStorage } from '../providers/storage/index';
import { entryCount, entryMeta, exportedLabel, formatDay, rangeLabel, zoneLabel } from '../../shared/export-render';
import { COLORS, MARGIN, PHOTO_CELL_MAX_HEIGHT, PHOTO_GAP, photoGrid, photoPixels } from '../../shared/pdf-layout';
import type { ExportInput } from './format';
import { registerPdfFonts, type PdfFonts } from './pdf-fonts';

const { ink: INK, muted: MUTED, accent: ACCENT, rule: RULE } = COLORS;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface PdfImage {
  jpeg: Buffer;
  width: number;
  height: number;
}

/** A photo as the PDF embeds it: JPEG on white, at most `maxWidth` px wide; null if it cannot be read. */
async function pdfPhoto(storage: PhotoStorage, photo: JournalPhotoRow, maxWidth: number): Promise<PdfImage | null> {
  try {
    const stored = await storage.get(photo.file_path);
    if (!stored) return null;
    const { data, info } = await sharp(await readAll(stored.stream))
      .rotate()
      .resize({ width: maxWidth, height: maxWidth, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: data, width: info.width, height: info.height };
  } catch {
    return null;
  }
}

function titlePage(doc: PDFKit.PDFDocument, input: ExportInput, fonts: PdfFonts) {
  doc.moveDown(8);
  doc.font(fonts.names.heading).fontSize(34).fillColor(INK).text('Journal', { align: 'center' });
  doc.moveDown(0.5);
  doc.font(fonts.names.meta).fontSize(13).fillColor(MUTED).text(rangeLabel(input.from, input.to), { align: 'center' });
  doc.moveDown(0.3).text(entryCount(input.entries.length), { align: 'center' });
  doc.moveDown(0.3).text(exportedLabel(input), { align: 'center' });
  doc.moveDown(0.3).text(zoneLabel(input.timezone), { align: 'center' });
}

/** Entries rendered between two pauses that let the written pages stream out. */
const ENTRIES_BETWEEN_PAUSES = 25;

/**
 * Renders the journal as a PDF into `doc` (already being streamed to the client): a title page,
 * then one section per entry with its date heading, time, title, tags, text and photos.
 */
export async function renderPdf(doc: PDFKit.PDFDocument, input: ExportInput, storage: PhotoStorage): Promise<void> {
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN;
  const fonts = registerPdfFonts(doc);
  const { names, printable } = fonts;
  titlePage(doc, input, fonts);
  doc.addPage();
  for (const [index, entry] of input.entries.entries()) {
    // Let the pages written so far flow out now and then: without a pause, a journal without photos
    // renders in one synchronous run and the whole PDF is held until its last page.
    if (index % ENTRIES_BETWEEN_PAUSES === ENTRIES_BETWEEN_PAUSES - 1) await new Promise((resolve) => setImmediate(resolve));
    // Keep a heading with at least a few lines of its entry (or, for a short entry, its first photos).
    const photosFollowSoon = input.photos && entry.photos.length > 0 && entry.content.length < 300;
    if (index > 0 && doc.y > bottom() - (photosFollowSoon ? 100 + PHOTO_CELL_MAX_HEIGHT : 120)) doc.addPage();
    else if (index > 0) {
      doc.moveDown(0.8);
      doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + width, doc.y).lineWidth(0.5).strokeColor(RULE).stroke();
      doc.moveDown(0.8);
    }
    doc.font(names.heading).fontSize(15).fillColor(INK).text(formatDay(entry.entry_date), MARGIN, doc.y, { width });
    doc.font(names.meta).fontSize(9).fillColor(MUTED).text(entryMeta(entry, input.timezone), { width });
    if (entry.title) doc.moveDown(0.4).font(names.heading).fontSize(12.5).fillColor(INK).text(printable('heading', entry.title), { width });
    if (entry.tags.length) {
      doc.moveDown(0.2).font(names.tags).fontSize(9).fillColor(ACCENT).text(printable('tags', entry.tags.map((t) => `#${t}`).join('  ')), { width });
    }
    if (entry.content) {
      doc.moveDown(0.5).font(names.body).fontSize(11.5).fillColor(INK).text(printable('body', entry.content), { width, lineGap: 3, paragraphGap: 4 });
    }
    if (input.photos && entry.photos.length) {
      const maxPixels = photoPixels(entry.photos.length);
      const images: PdfImage[] = [];
      for (const photo of entry.photos) {
        const image = await pdfPhoto(storage, photo, maxPixels);
        if (image) images.push(image);
      }
      doc.moveDown(0.5);
      for (const row of photoGrid(images, width)) {
        // A new page only when the row does not fit in what is left of this one.
        if (doc.y + row.height > bottom()) doc.addPage();
        const top = doc.y;
        for (const placed of row.photos) {
          const image = images.shift()!;
          doc.image(image.jpeg, MARGIN + placed.x, top + placed.y, { width: placed.width, height: placed.height });
        }
        doc.x = MARGIN;
        doc.y = top + row.height + PHOTO_GAP;
      }
    }
  }
  doc.end();
}

export function newPdfDocument(): PDFKit.PDFDocument {
  return new PDFDocument({ size: 'LETTER', margin: MARGIN, info: { Title: 'Journal', Creator: 'Jotline' } });
}
