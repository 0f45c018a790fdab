import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import type { ExportInput } from './export-render';
import type { EntryPhoto, JournalEntry } from './journal';
import { PDF_FONT_FILES, pictureOf, renderPdf, type PdfFace, type PdfSources } from './pdf';
import { blankGlyphs, fontNames, pageImages, pageLines } from './test/pdf';

const require = createRequire(import.meta.url);
/** The faces from their packages, as the server reads them; which ones a PDF asked for. */
const asked = new Set<PdfFace>();
const fonts = async (face: PdfFace) => {
  asked.add(face);
  return readFileSync(require.resolve(PDF_FONT_FILES[face]));
};

/** The whole file, as renderPdf writes it out. */
async function pdfOf(journal: ExportInput<JournalEntry>, sources: PdfSources<EntryPhoto>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  await renderPdf(journal, sources, (bytes) => void chunks.push(bytes));
  return Buffer.concat(chunks);
}

const photo = (id: string, mime_type: string): EntryPhoto => ({ id, url: `/media/${id}`, thumbnail_url: `/media/${id}-t`, file_name: `${id}.jpg`, file_size: 100, mime_type });

const entry = (id: string, entry_date: string, content: string, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  id,
  title: null,
  content,
  version: 1,
  source: 'web',
  entry_date,
  created_at: `${entry_date}T12:00:00.000Z`,
  updated_at: `${entry_date}T12:00:00.000Z`,
  tags: [],
  word_count: 0,
  time_zone: null,
  photos: [],
  ...extra,
});

const input = (entries: JournalEntry[], photos = true): ExportInput<JournalEntry> => ({
  entries,
  timezone: 'Europe/Kyiv',
  exportedAt: new Date('2026-11-25T10:00:00.000Z'),
  today: '2026-11-25',
  photos,
});

describe("the journal's PDF (the server's and a Vault journal's in the browser)", () => {
  it('has the title page, each entry under its date heading in any script DejaVu prints, and its photos', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#f59e0b' } }).png().toBuffer();
    const webp = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0ea5e9' } }).webp().toBuffer();
    const reencoded = await sharp(webp).jpeg().toBuffer();
    const stored = new Map<string, Uint8Array>([
      ['png', png],
      ['webp', webp],
    ]);
    const reencode = vi.fn(async (bytes: Uint8Array) => (Buffer.from(bytes).equals(webp) ? reencoded : null));
    const journal = [
      entry('a', '2026-11-22', 'Привіт, світе! Καλημέρα. שלום. 日本', {
        title: 'Ранок',
        tags: ['море', 'dog'],
        photos: [photo('png', 'image/png'), photo('webp', 'image/webp'), photo('gone', 'image/jpeg')],
      }),
      entry('b', '2026-11-21', 'Rainy afternoon with a good book.', { source: 'sms', created_at: '2026-11-22T08:00:00.000Z' }),
    ];

    const bytes = await pdfOf(input(journal), { font: fonts, photo: async (p) => stored.get(p.id) ?? null, reencode });

    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toBe('Journal');
    const [title, first, ...rest] = doc.getPages();
    expect(rest).toEqual([]);
    expect(pageLines(doc, title!)).toEqual(['Journal', 'All entries', '2 entries', 'Exported Wednesday, November 25, 2026 at 12:00 PM GMT+2', 'Times in Europe/Kyiv']);
    // Cyrillic, Greek and Hebrew as written; CJK, which DejaVu lacks, as '?' (the server's rule).
    expect(pageLines(doc, first!)).toEqual([
      'Sunday, November 22, 2026',
      '2:00 PM · Web',
      'Ранок',
      '#море  #dog',
      // A Hebrew word is drawn right to left: its glyphs, read back, are in the order they are seen.
      'Привіт, світе! Καλημέρα. .םולש ??',
      'Saturday, November 21, 2026',
      'Written Sunday, November 22, 2026 at 10:00 AM · Text message',
      'Rainy afternoon with a good book.',
    ]);
    // The PNG as it is, the webp re-encoded at a grid cell's size; the unreadable one left out.
    expect(pageImages(doc, first!)).toEqual([
      { width: 40, height: 30 },
      { width: 64, height: 48 },
    ]);
    expect(reencode).toHaveBeenCalledTimes(1);
    expect(reencode).toHaveBeenCalledWith(expect.any(Uint8Array), 700);
  });

  it('draws emoji in the emoji face, sequences whole, and fetches that face only for a journal that has them', async () => {
    asked.clear();
    const plainDoc = await PDFDocument.load(await pdfOf(input([entry('a', '2026-11-22', 'No pictures in words')]), { font: fonts, photo: async () => null }));
    expect(pageLines(plainDoc, plainDoc.getPages()[1]!)).toContain('No pictures in words');
    expect(asked.has('emoji')).toBe(false);

    const journal = [entry('a', '2026-11-22', 'Too much pie 🥧 at home with 👨‍👩‍👧, door 🔒.\nLoved it ❤️👍🏽 🇺🇦', { title: 'Pie day 🥧', tags: ['food🍕'] })];
    const doc = await PDFDocument.load(await pdfOf(input(journal), { font: fonts, photo: async () => null }));
    expect(asked.has('emoji')).toBe(true);
    expect(fontNames(doc)).toContain('NotoEmoji-Regular');
    // Every word kept, every emoji drawn (a skin tone in the one colour the face has).
    expect(pageLines(doc, doc.getPages()[1]!).slice(2)).toEqual(['Pie day 🥧', '#food🍕', 'Too much pie 🥧 at home with 👨‍👩‍👧, door 🔒.', 'Loved it ❤️👍 🇺🇦']);
    // And drawn, not only there as text: the embedded subsets keep each glyph's outline.
    expect(blankGlyphs(doc)).toEqual([]);
  });

  it('draws an entry’s Markdown (Day One’s bold, lists, tasks, code) without its markup', async () => {
    const markdown = [
      'Day One **Bold** and *italic* with `npm test`',
      '',
      '- first',
      '- second',
      '  - nested',
      '',
      '- [ ] call mum',
      '- [x] buy pie',
      '',
      '1. one',
      '2. two',
      '',
      '```',
      'const x = 1;',
      '```',
      '',
      '> quoted [a link](https://example.com/a) <b>kept</b>',
      '',
      'Tabbed\tcolumns',
    ].join('\n');
    asked.clear();
    const doc = await PDFDocument.load(await pdfOf(input([entry('a', '2026-11-22', markdown)]), { font: fonts, photo: async () => null }));
    expect(pageLines(doc, doc.getPages()[1]!).slice(2)).toEqual([
      'Day One Bold and italic with npm test',
      '• first',
      '• second',
      '• nested',
      '☐ call mum',
      '☑ buy pie',
      '1. one',
      '2. two',
      'const x = 1;',
      'quoted a link (https://example.com/a) <b>kept</b>',
      'Tabbed    columns',
    ]);
    expect([...asked].sort()).toEqual(['bold', 'mono', 'oblique', 'regular']);
    expect(new Set(fontNames(doc))).toEqual(new Set(['DejaVuSans', 'DejaVuSans-Bold', 'DejaVuSans-Oblique', 'DejaVuSansMono']));
    expect(blankGlyphs(doc)).toEqual([]);
  });

  it('leaves photos out unless asked for them', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#f59e0b' } }).png().toBuffer();
    const read = vi.fn(async () => png);
    const doc = await PDFDocument.load(await pdfOf(input([entry('a', '2026-11-22', 'Words', { photos: [photo('png', 'image/png')] })], false), { font: fonts, photo: read }));
    expect(doc.getPages().flatMap((page) => pageImages(doc, page))).toEqual([]);
    expect(read).not.toHaveBeenCalled();
  });

  it('makes a photo larger than the server would embed smaller when it can, embeds it whole when it cannot, and leaves out what is not a picture', async () => {
    const large = await sharp({ create: { width: 1300, height: 20, channels: 3, background: '#f59e0b' } }).jpeg().toBuffer();
    const small = await sharp({ create: { width: 1200, height: 18, channels: 3, background: '#f59e0b' } }).jpeg().toBuffer();
    const journal = (id: string) => [entry('a', '2026-11-22', 'Words', { photos: [photo(id, 'image/jpeg')] })];
    const stored = new Map<string, Uint8Array>([
      ['large', large],
      ['junk', new TextEncoder().encode('not a picture')],
    ]);
    const read = async (p: EntryPhoto) => stored.get(p.id) ?? null;
    const imagesOf = async (bytes: Uint8Array) => {
      const doc = await PDFDocument.load(bytes);
      return doc.getPages().flatMap((page) => pageImages(doc, page));
    };
    const reencode = vi.fn(async () => small);
    // One photo alone: at most 1200 px on a side, as on the server.
    expect(await imagesOf(await pdfOf(input(journal('large')), { font: fonts, photo: read, reencode }))).toEqual([{ width: 1200, height: 18 }]);
    expect(reencode).toHaveBeenCalledWith(large, 1200);
    expect(await imagesOf(await pdfOf(input(journal('large')), { font: fonts, photo: read, reencode: async () => null }))).toEqual([{ width: 1300, height: 20 }]);
    expect(await imagesOf(await pdfOf(input(journal('junk')), { font: fonts, photo: read, reencode: async () => null }))).toEqual([]);
  });

  it('wraps long text within the margins and goes on over as many pages as it needs, every word kept', async () => {
    const words = Array.from({ length: 1500 }, (_, i) => `word${i}`);
    const doc = await PDFDocument.load(await pdfOf(input([entry('a', '2026-11-22', words.join(' '))]), { font: fonts, photo: async () => null }));
    const pages = doc.getPages();
    expect(pages.length).toBeGreaterThan(3);
    const body = pages.slice(1).flatMap((page) => pageLines(doc, page)).slice(2);
    expect(body.join(' ')).toBe(words.join(' '));
    // Every line fits the 468 pt between the margins, and lines are not left half empty.
    const regular = await PDFDocument.create().then(async (d) => {
      d.registerFontkit((await import('@pdf-lib/fontkit')).default);
      return d.embedFont(await fonts('regular'));
    });
    const widths = body.map((line) => regular.widthOfTextAtSize(line, 11.5));
    expect(Math.max(...widths)).toBeLessThanOrEqual(468);
    expect(Math.min(...widths.slice(0, -1))).toBeGreaterThan(400);
  });

  it('reads the size of a JPEG or a PNG from its header, and knows any other picture for one to re-encode', async () => {
    expect(pictureOf(await sharp({ create: { width: 33, height: 21, channels: 3, background: '#000' } }).jpeg().toBuffer())).toEqual({ kind: 'jpeg', width: 33, height: 21 });
    expect(pictureOf(await sharp({ create: { width: 33, height: 21, channels: 4, background: '#0000' } }).png().toBuffer())).toEqual({ kind: 'png', width: 33, height: 21 });
    expect(pictureOf(await sharp({ create: { width: 33, height: 21, channels: 3, background: '#000' } }).gif().toBuffer())).toEqual({ kind: 'other' });
  });
});
