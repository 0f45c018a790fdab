import { inflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntry, journalUser, type JournalTestUser } from '../journal/test-helpers';
import { buildTestApp, type TestApp } from '../test/app';
import { registerPdfFonts } from './pdf-fonts';

const WORLD = 'Ελληνικά, Русский, עברית, café, 中文 and 😀';

/** The PDF's fonts (BaseFont names) and the text its ToUnicode maps can give back (as code points). */
function readPdf(pdf: Buffer): { fonts: string[]; mapped: Set<number> } {
  const raw = pdf.toString('latin1');
  const fonts = [...raw.matchAll(/\/BaseFont \/([\w+-]+)/g)].map((m) => m[1]!.replace(/^[A-Z]{6}\+/, ''));
  const mapped = new Set<number>();
  for (const [, body] of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let text: string;
    try {
      text = inflateSync(Buffer.from(body!, 'latin1')).toString('latin1');
    } catch {
      continue; // an image or an uncompressed stream
    }
    if (!text.includes('begincmap')) continue;
    for (const [, hex] of text.matchAll(/<([0-9a-fA-F]{4,})>/g)) mapped.add(parseInt(hex!, 16));
  }
  return { fonts, mapped };
}

describe('fonts of the PDF export', () => {
  let t: TestApp;
  let user: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    user = await journalUser(t);
    await createEntry(t, user, { title: 'Путешествие', content: WORLD, tags: 'ταξίδι' });
  });
  afterAll(() => t.close());

  const exportPdf = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/export?format=pdf', headers: user.headers });
    expect(res.statusCode).toBe(200);
    return readPdf(res.rawPayload);
  };

  describe('with the DejaVu fonts (a dependency)', () => {
    it('embeds DejaVu and keeps Greek, Cyrillic and Hebrew as text', async () => {
      const { fonts, mapped } = await exportPdf();
      expect(new Set(fonts)).toEqual(new Set(['DejaVuSans-Bold', 'DejaVuSans', 'DejaVuSans-Oblique']));
      for (const ch of 'ΕλРусעברתé') expect(mapped.has(ch.codePointAt(0)!), ch).toBe(true);
    });

    it('prints what the font lacks as ? rather than empty boxes, and keeps only the emoji it draws', () => {
      const fonts = registerPdfFonts(new PDFDocument());
      expect(fonts.unicode).toBe(true);
      expect(fonts.printable('body', 'Русский 中文')).toBe('Русский ??');
      // DejaVu 2.37 draws ☕ and 😀 (in one colour), not 👍 nor 🦄; a sequence it cannot draw goes whole.
      expect(fonts.printable('body', 'coffee ☕, done 😀👍🏽\u200d🦄!')).toBe('coffee ☕, done 😀!');
    });
  });
});
