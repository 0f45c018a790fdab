import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { JournalPhotoRow } from '../db/tables';
import type { PhotoStorage } from '../providers/storage/index';
import { entryCount, formatDay, formatTime, rangeLabel, sourceLabel, type ExportInput } from './format';
import { registerPdfFonts, type PdfFonts } from './pdf-fonts';

const MARGIN = 72;
const INK = '#1f2937';
const MUTED = '#6b7280';
const ACCENT = '#4f46e5';
const PHOTO_MAX_HEIGHT = 320;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A photo as the PDF embeds it: JPEG on white, at most 1200 px wide; null if it cannot be read. */
async function pdfPhoto(storage: PhotoStorage, photo: JournalPhotoRow): Promise<{ jpeg: Buffer; width: number; height: number } | null> {
  try {
    const stored = await storage.get(photo.file_path);
    if (!stored) return null;
    const { data, info } = await sharp(await readAll(stored.stream))
      .resize({ width: 1200, withoutEnlargement: true })
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
  doc.moveDown(0.3).text(`Exported ${formatDay(input.today)}`, { align: 'center' });
}

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
    // Keep a heading with at least a few lines of its entry.
    if (index > 0 && doc.y > bottom() - 120) doc.addPage();
    else if (index > 0) {
      doc.moveDown(0.8);
      doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + width, doc.y).lineWidth(0.5).strokeColor('#e5e7eb').stroke();
      doc.moveDown(0.8);
    }
    doc.font(names.heading).fontSize(15).fillColor(INK).text(formatDay(entry.entry_date), MARGIN, doc.y, { width });
    doc.font(names.meta).fontSize(9).fillColor(MUTED).text(`${formatTime(entry.created_at, input.timezone)} · ${sourceLabel(entry)}`, { width });
    if (entry.title) doc.moveDown(0.4).font(names.heading).fontSize(12.5).fillColor(INK).text(printable('heading', entry.title), { width });
    if (entry.tags.length) {
      doc.moveDown(0.2).font(names.tags).fontSize(9).fillColor(ACCENT).text(printable('tags', entry.tags.map((t) => `#${t}`).join('  ')), { width });
    }
    if (entry.content) {
      doc.moveDown(0.5).font(names.body).fontSize(11.5).fillColor(INK).text(printable('body', entry.content), { width, lineGap: 3, paragraphGap: 4 });
    }
    if (input.photos) {
      for (const photo of entry.photos) {
        const image = await pdfPhoto(storage, photo);
        if (!image) continue;
        const scale = Math.min(width / image.width, PHOTO_MAX_HEIGHT / image.height, 1);
        const height = image.height * scale;
        if (doc.y + height + 12 > bottom()) doc.addPage();
        doc.moveDown(0.5);
        doc.image(image.jpeg, MARGIN + (width - image.width * scale) / 2, doc.y, { width: image.width * scale, height });
        doc.y += height;
      }
    }
  }
  doc.end();
}

export function newPdfDocument(): PDFKit.PDFDocument {
  return new PDFDocument({ size: 'LETTER', margin: MARGIN, info: { Title: 'Journal', Creator: 'Jotline' } });
}
