import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderPdf, type PdfFace } from '../../shared/pdf';
import type { CachedEntry } from '../journal/cache';
import { readPdfFont } from './pdf-fonts';

const NOW = new Date('2026-11-17T01:57:00Z');

describe('a long journal’s PDF', () => {
  it('streams its pages out while the rest is still being written, and the file is whole at the end', async () => {
    const entries = Array.from(
      { length: 400 },
      (_, i) =>
        ({
          id: `e${i}`,
          title: i % 4 === 0 ? `Day ${i}` : null,
          // Only the last entry has an emoji: the renderer asks for the emoji face when it gets there.
          content: `Entry ${i}: ${'a walk by the river and coffee after. '.repeat(20)}${i === 399 ? ' 🥧' : ''}`,
          source: 'web',
          tags: [],
          photos: [],
          entry_date: new Date(NOW.getTime() - i * 86_400_000).toISOString().slice(0, 10),
          created_at: NOW.toISOString(),
          updated_at: NOW.toISOString(),
        }) as unknown as CachedEntry,
    );
    const chunks: Uint8Array[] = [];
    let written = 0;
    let bytesBeforeLastEntry = 0;
    const font = (face: PdfFace) => {
      if (face === 'emoji') bytesBeforeLastEntry = written;
      return readPdfFont(face);
    };
    await renderPdf({ entries, timezone: 'UTC', exportedAt: NOW, today: '2026-11-16', photos: false }, { font, photo: async () => null }, (bytes) => {
      chunks.push(bytes);
      written += bytes.length;
    });
    const pdf = Buffer.concat(chunks);
    // Most of the file had gone out before the last entry was written (not held until the end).
    expect(bytesBeforeLastEntry).toBeGreaterThan(pdf.length / 2);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBeGreaterThan(100);
  });
});
