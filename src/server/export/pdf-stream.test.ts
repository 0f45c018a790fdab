import { describe, expect, it } from 'vitest';
import type { CachedEntry } from '../journal/cache';
import { newPdfDocument, renderPdf } from './pdf';

const NOW = new Date('2026-11-17T01:57:00Z');

describe('a long journal’s PDF', () => {
  it('streams its pages out while the rest is still being written, and the file is whole at the end', async () => {
    const entries = Array.from(
      { length: 400 },
      (_, i) =>
        ({
          id: `e${i}`,
          title: i % 4 === 0 ? `Day ${i}` : null,
          content: `Entry ${i}: ${'a walk by the river and coffee after. '.repeat(20)}`,
          source: 'web',
          tags: [],
          photos: [],
          entry_date: new Date(NOW.getTime() - i * 86_400_000).toISOString().slice(0, 10),
          created_at: NOW.toISOString(),
          updated_at: NOW.toISOString(),
        }) as unknown as CachedEntry,
    );
    const doc = newPdfDocument();
    const chunks: Buffer[] = [];
    let bytesBeforeDone = 0;
    let done = false;
    doc.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (!done) bytesBeforeDone += chunk.length;
    });
    const ended = new Promise((resolve) => doc.on('end', resolve));
    await renderPdf(doc, { entries, timezone: 'UTC', exportedAt: NOW, today: '2026-11-16', photos: false }, { get: async () => null } as never);
    done = true;
    await ended;
    const pdf = Buffer.concat(chunks);
    // Most of the file had gone out before the last entry was written (not held until the end).
    expect(bytesBeforeDone).toBeGreaterThan(pdf.length / 2);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
  });
});
