import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type Color, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { entryCount, entryMeta, exportedLabel, formatDay, rangeLabel, zoneLabel, type ExportInput } from '../../../../shared/export-render';
import type { EntryPhoto, JournalEntry } from '../../../../shared/journal';
import { COLORS, MARGIN, PAGE_HEIGHT, PAGE_WIDTH, PHOTO_CELL_MAX_HEIGHT, PHOTO_GAP, photoGrid, photoPixels } from '../../../../shared/pdf-layout';

// A Vault journal's PDF, made in the browser where the journal is unlocked: the server's PDF
// (src/server/export/pdf.ts, pdfkit) page for page in layout and words, drawn with pdf-lib. pdf-lib
// places text by hand, so the little of pdfkit's text flow the journal uses (wrapping, moving down a
// line, a new page at the bottom margin) is written out here.

const INK = hex(COLORS.ink);
const MUTED = hex(COLORS.muted);
const ACCENT = hex(COLORS.accent);
const RULE = hex(COLORS.rule);

function hex(color: string): Color {
  const n = Number.parseInt(color.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/** What a journal PDF sets in which face (DejaVu Sans throughout, as on the server). */
type FontRole = 'heading' | 'meta' | 'tags' | 'body';
const FACE_OF_ROLE = { heading: 'bold', meta: 'regular', tags: 'oblique', body: 'regular' } as const;

/** DejaVu Sans, Sans Bold and Sans Oblique: the TTF files' bytes. */
export type PdfFontFiles = Record<'regular' | 'bold' | 'oblique', Uint8Array>;

export interface PdfSources {
  fonts: PdfFontFiles;
  /** A photo's opened bytes, or null when it cannot be read (it is then left out, as on the server). */
  photo(photo: EntryPhoto): Promise<Uint8Array | null>;
  /** A picture pdf-lib cannot embed (a webp, a GIF) or one too large, as a JPEG at most `maxPixels` on a side; null when it cannot be decoded. */
  reencode?(bytes: Uint8Array, maxPixels: number): Promise<Uint8Array | null>;
}

export interface PdfInput extends ExportInput {
  entries: readonly JournalEntry[];
}

interface Face {
  font: PDFFont;
  /** Glyph coverage and vertical metrics, read from the same file. */
  ascent: number;
  lineHeight: number;
  has(codePoint: number): boolean;
}

async function embedFaces(doc: PDFDocument, files: PdfFontFiles): Promise<Record<FontRole, Face>> {
  doc.registerFontkit(fontkit);
  const faces = {} as Record<keyof PdfFontFiles, Face>;
  for (const name of ['regular', 'bold', 'oblique'] as const) {
    const metrics = fontkit.create(files[name]);
    const scale = 1 / metrics.unitsPerEm;
    // Subset: a journal uses a few hundred of DejaVu's 6,000 glyphs; the whole face is 700 KB.
    faces[name] = {
      font: await doc.embedFont(files[name], { subset: true }),
      ascent: metrics.ascent * scale,
      // pdfkit's line height: ascender, line gap and descender, in ems.
      lineHeight: (metrics.ascent + metrics.lineGap - metrics.descent) * scale,
      has: (codePoint) => metrics.hasGlyphForCodePoint(codePoint),
    };
  }
  return { heading: faces[FACE_OF_ROLE.heading], meta: faces[FACE_OF_ROLE.meta], tags: faces[FACE_OF_ROLE.tags], body: faces[FACE_OF_ROLE.body] };
}

const EMOJI = /\p{Extended_Pictographic}(\uFE0F|\u200D\p{Extended_Pictographic}|\p{Emoji_Modifier})*/gu;

/** Text as a face can print it, by the server's rule: emoji it lacks are left out, other missing characters become '?'. */
export function printable(face: Pick<Face, 'has'>, text: string): string {
  const has = (ch: string) => face.has(ch.codePointAt(0)!);
  // An emoji sequence cannot be composed here: keep its first symbol when the face draws it.
  const emojiDone = text.replace(EMOJI, (sequence) => {
    const first = String.fromCodePoint(sequence.codePointAt(0)!);
    return has(first) ? first : '';
  });
  // Joiners and variation selectors print nothing on their own; a tab is a space in a line of text.
  return [...emojiDone.replace(/[\uFE0F\u200D]/g, '').replace(/\r\n?/g, '\n').replace(/\t/g, '    ')]
    .map((ch) => (ch === '\n' || has(ch) ? ch : '?'))
    .join('');
}

interface TextOptions {
  width: number;
  align?: 'left' | 'center';
  /** Extra space under each line, and under each paragraph, as pdfkit's options of those names. */
  lineGap?: number;
  paragraphGap?: number;
}

/** The pages being written, with pdfkit's cursor: the current font, and `y` from the top of the page. */
class Flow {
  page: PDFPage;
  y = MARGIN;
  private face: Face;
  private size = 12;
  private color = INK;
  private readonly widths = new Map<string, number>();

  constructor(
    private readonly doc: PDFDocument,
    private readonly faces: Record<FontRole, Face>,
  ) {
    this.page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.face = faces.meta;
  }

  get bottom() {
    return PAGE_HEIGHT - MARGIN;
  }

  addPage() {
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.y = MARGIN;
  }

  font(role: FontRole, size: number, color: Color): this {
    this.face = this.faces[role];
    this.size = size;
    this.color = color;
    return this;
  }

  private get lineHeight() {
    return this.face.lineHeight * this.size;
  }

  /** pdfkit's moveDown: `lines` lines of the current font. */
  moveDown(lines = 1): this {
    this.y += this.lineHeight * lines;
    return this;
  }

  private width(text: string): number {
    const key = `${this.face.font.name}\u0000${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      width = this.face.font.widthOfTextAtSize(text, 1);
      this.widths.set(key, width);
    }
    return width * this.size;
  }

  /** A paragraph's lines: broken at spaces, and a word wider than the line broken where it must be. */
  private lines(paragraph: string, width: number): string[] {
    const lines: string[] = [];
    let line: string | null = null;
    let lineWidth = 0;
    const space = this.width(' ');
    for (const word of paragraph.split(' ')) {
      const wordWidth = this.width(word);
      if (line !== null && lineWidth + space + wordWidth <= width) {
        line += ` ${word}`;
        lineWidth += space + wordWidth;
        continue;
      }
      if (line !== null) lines.push(line);
      if (wordWidth <= width) {
        line = word;
        lineWidth = wordWidth;
        continue;
      }
      line = '';
      lineWidth = 0;
      for (const ch of word) {
        const chWidth = this.width(ch);
        if (line !== '' && lineWidth + chWidth > width) {
          lines.push(line);
          line = '';
          lineWidth = 0;
        }
        line += ch;
        lineWidth += chWidth;
      }
    }
    // An empty paragraph is an empty line, as in pdfkit.
    lines.push(line ?? '');
    return lines;
  }

  /** Writes text at the left margin from the cursor down, wrapped to `width`, going on to a new page at the bottom margin. */
  text(text: string, options: TextOptions): this {
    const lineHeight = this.lineHeight + (options.lineGap ?? 0);
    for (const paragraph of text.split('\n')) {
      for (const line of this.lines(paragraph, options.width)) {
        if (this.y + lineHeight > this.bottom && this.y > MARGIN) this.addPage();
        const trimmed = line.replace(/ +$/, '');
        if (trimmed) {
          const x = MARGIN + (options.align === 'center' ? (options.width - this.width(trimmed)) / 2 : 0);
          const baseline = this.y + this.face.ascent * this.size;
          this.page.drawText(trimmed, { x, y: PAGE_HEIGHT - baseline, font: this.face.font, size: this.size, color: this.color });
        }
        this.y += lineHeight;
      }
      this.y += options.paragraphGap ?? 0;
    }
    return this;
  }

  rule(width: number) {
    this.page.drawLine({ start: { x: MARGIN, y: PAGE_HEIGHT - this.y }, end: { x: MARGIN + width, y: PAGE_HEIGHT - this.y }, thickness: 0.5, color: RULE });
  }

  image(image: PDFImage, x: number, top: number, width: number, height: number) {
    this.page.drawImage(image, { x: MARGIN + x, y: PAGE_HEIGHT - top - height, width, height });
  }
}

type Picture = { kind: 'jpeg' | 'png'; width: number; height: number } | { kind: 'other' };

/** A picture's format, and a JPEG's or PNG's size in pixels from its header. */
export function pictureOf(bytes: Uint8Array): Picture {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length > 24 && view.getUint32(0) === 0x89504e47 && view.getUint32(12) === 0x49484452) {
    return { kind: 'png', width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length > 4 && view.getUint16(0) === 0xffd8) {
    // Walk the segments to the frame header (SOF0–SOF15, less DHT, JPG and DAC).
    let at = 2;
    while (at + 9 < bytes.length && bytes[at] === 0xff) {
      const marker = bytes[at + 1]!;
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { kind: 'jpeg', height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
      }
      at += 2 + view.getUint16(at + 2);
    }
  }
  return { kind: 'other' };
}

const embedAsIs = (doc: PDFDocument, bytes: Uint8Array, kind: 'jpeg' | 'png') => (kind === 'jpeg' ? doc.embedJpg(bytes) : doc.embedPng(bytes)).catch(() => null);

/**
 * A photo in the document, at most `maxPixels` on a side when it can be made so (the server's
 * sizes: a smaller file); null when it cannot be read, and it is left out, as on the server. A
 * JPEG or PNG small enough goes in as it is; any other goes through `reencode`.
 */
async function embedPhoto(doc: PDFDocument, bytes: Uint8Array, maxPixels: number, sources: PdfSources): Promise<PDFImage | null> {
  const picture = pictureOf(bytes);
  const fits = picture.kind !== 'other' && picture.width > 0 && picture.height > 0 && Math.max(picture.width, picture.height) <= maxPixels;
  if (fits) {
    const image = await embedAsIs(doc, bytes, picture.kind);
    if (image) return image;
  }
  const jpeg = await sources.reencode?.(bytes, maxPixels).catch(() => null);
  if (jpeg) return doc.embedJpg(jpeg).catch(() => null);
  // Too large, and nothing here to make it smaller: whole, rather than not at all.
  return picture.kind !== 'other' && !fits ? embedAsIs(doc, bytes, picture.kind) : null;
}

/** The title page: 'Journal', the range, the count, when it was exported and in which zone. */
function titlePage(flow: Flow, input: PdfInput, width: number) {
  // pdfkit's first font, Helvetica 12, sets the height of these eight lines on the server.
  flow.y += 8 * 13.872;
  flow.font('heading', 34, INK).text('Journal', { width, align: 'center' });
  flow.moveDown(0.5);
  flow.font('meta', 13, MUTED).text(rangeLabel(input.from, input.to), { width, align: 'center' });
  for (const line of [entryCount(input.entries.length), exportedLabel(input), zoneLabel(input.timezone)]) flow.moveDown(0.3).text(line, { width, align: 'center' });
}

const ENTRIES_BETWEEN_PAUSES = 25;

/**
 * The journal as a PDF: a title page, then one section per entry with its date heading, time,
 * title, tags, text and (when asked for) photos.
 */
export async function renderPdf(input: PdfInput, sources: PdfSources): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Journal');
  doc.setCreator('Jotline');
  const faces = await embedFaces(doc, sources.fonts);
  const print = (role: FontRole, text: string) => printable(faces[role], text);
  const width = PAGE_WIDTH - 2 * MARGIN;
  const flow = new Flow(doc, faces);
  titlePage(flow, input, width);
  flow.addPage();
  for (const [index, entry] of input.entries.entries()) {
    // Give the page a moment now and then, so a long journal does not freeze the tab while it is laid out.
    if (index % ENTRIES_BETWEEN_PAUSES === ENTRIES_BETWEEN_PAUSES - 1) await new Promise((resolve) => setTimeout(resolve, 0));
    // Keep a heading with at least a few lines of its entry (or, for a short entry, its first photos).
    const photosFollowSoon = input.photos && entry.photos.length > 0 && entry.content.length < 300;
    if (index > 0 && flow.y > flow.bottom - (photosFollowSoon ? 100 + PHOTO_CELL_MAX_HEIGHT : 120)) flow.addPage();
    else if (index > 0) {
      flow.moveDown(0.8);
      flow.rule(width);
      flow.moveDown(0.8);
    }
    flow.font('heading', 15, INK).text(formatDay(entry.entry_date), { width });
    flow.font('meta', 9, MUTED).text(entryMeta(entry, input.timezone), { width });
    if (entry.title) flow.moveDown(0.4).font('heading', 12.5, INK).text(print('heading', entry.title), { width });
    if (entry.tags.length) flow.moveDown(0.2).font('tags', 9, ACCENT).text(print('tags', entry.tags.map((t) => `#${t}`).join('  ')), { width });
    if (entry.content) flow.moveDown(0.5).font('body', 11.5, INK).text(print('body', entry.content), { width, lineGap: 3, paragraphGap: 4 });
    if (input.photos && entry.photos.length) {
      const maxPixels = photoPixels(entry.photos.length);
      const images: PDFImage[] = [];
      for (const photo of entry.photos) {
        const bytes = await sources.photo(photo);
        const image = bytes && (await embedPhoto(doc, bytes, maxPixels, sources));
        if (image) images.push(image);
      }
      flow.moveDown(0.5);
      for (const row of photoGrid(images, width)) {
        // A new page only when the row does not fit in what is left of this one.
        if (flow.y + row.height > flow.bottom) flow.addPage();
        const top = flow.y;
        for (const placed of row.photos) flow.image(images.shift()!, placed.x, top + placed.y, placed.width, placed.height);
        flow.y = top + row.height + PHOTO_GAP;
      }
    }
  }
  return doc.save();
}
