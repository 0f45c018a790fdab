import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JournalEntry } from '../../../../shared/journal';
import { PDF_FONT_FILES, type PdfFace } from '../../../../shared/pdf';
import { saveBlob } from '../../../api/download';
import { SEALED_PHOTO_MARK } from '../../journal/photo-src';
import { exportInBrowser } from './export';
import { openedPhotoBytes } from './photos';

// The PDF of a Vault journal, asked for as the export dialog asks: the opened journal, its sealed
// photos opened here, the fonts fetched from the app's own files, and the file saved from the tab.

const journal: JournalEntry[] = [
  {
    id: 'a',
    title: 'Море',
    content: 'Kingfisher over the weir. Зимородок. 🐦',
    version: 1,
    source: 'web',
    entry_date: '2026-11-22',
    created_at: '2026-11-22T12:00:00.000Z',
    updated_at: '2026-11-22T12:00:00.000Z',
    tags: ['birds'],
    word_count: 5,
    time_zone: null,
    photos: [{ id: 'p', url: `/media/p?sig=1${SEALED_PHOTO_MARK}`, thumbnail_url: '', file_name: 'weir.png', file_size: 100, mime_type: 'image/png' }],
  },
];

vi.mock('./vault-journal', () => ({ wholeVaultJournal: async () => journal, journalZone: async () => 'UTC' }));
vi.mock('./photos', () => ({ openedPhotoBytes: vi.fn() }));
vi.mock('../../../api/download', () => ({ saveBlob: vi.fn() }));

const require = createRequire(import.meta.url);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a Vault journal's PDF export", () => {
  it('is made here with the photos opened here, in the fonts fetched from the app files, and saved as a PDF', async () => {
    vi.mocked(openedPhotoBytes).mockResolvedValue(await sharp({ create: { width: 320, height: 240, channels: 3, background: '#0ea5e9' } }).png().toBuffer());
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      fetched.push(url);
      const face = (Object.keys(PDF_FONT_FILES) as PdfFace[]).find((name) => url.endsWith(basename(PDF_FONT_FILES[name])));
      return face ? new Response(readFileSync(require.resolve(PDF_FONT_FILES[face]))) : new Response(null, { status: 404 });
    });

    const name = await exportInBrowser({ format: 'pdf', from: '', to: '', photos: true });

    expect(name).toMatch(/^journal-export-\d{4}-\d{2}-\d{2}\.pdf$/);
    // The faces this journal uses, and no others (no code: no mono face).
    expect(fetched.map((url) => /[^/]+\.ttf$/.exec(url)?.[0]).sort()).toEqual(['DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf', 'DejaVuSans.ttf', 'NotoEmoji_400Regular.ttf']);
    expect(openedPhotoBytes).toHaveBeenCalledWith(journal[0]!.photos[0]!.url);
    const [blob, savedAs] = vi.mocked(saveBlob).mock.calls[0]!;
    expect(savedAs).toBe(name);
    expect(blob.type).toBe('application/pdf');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(2);
    const images = doc.context
      .enumerateIndirectObjects()
      .map(([, object]) => object)
      .filter((object) => object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
    expect(images).toHaveLength(1);
  });
});
