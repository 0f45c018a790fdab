import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHOTOS_PER_ENTRY_MAX } from '../../shared/journal-rules';
import { createEntry, journalUser, multipart, testImage } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { photoGrid } from '../../shared/pdf-layout';

const AREA = 468; // a Letter page less two one-inch margins

describe('photos in the PDF', () => {
  it('lays photos out in rows of up to three, inside the text column, never overlapping', () => {
    const sizes = [
      { width: 1600, height: 1200 },
      { width: 1200, height: 1600 },
      { width: 1600, height: 900 },
      { width: 1000, height: 1000 },
      { width: 1600, height: 1200 },
      { width: 800, height: 1200 },
      { width: 1600, height: 1200 },
    ];
    const rows = photoGrid(sizes, AREA);
    expect(rows.map((r) => r.photos.length)).toEqual([3, 3, 1]);
    for (const row of rows) {
      for (const p of row.photos) {
        expect(p.x).toBeGreaterThanOrEqual(0);
        expect(p.x + p.width).toBeLessThanOrEqual(AREA + 0.001);
        expect(p.y + p.height).toBeLessThanOrEqual(row.height + 0.001);
      }
      const sorted = [...row.photos].sort((a, b) => a.x - b.x);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.x).toBeGreaterThanOrEqual(sorted[i - 1]!.x + sorted[i - 1]!.width);
    }
    // Every photo keeps its shape.
    const first = rows[0]!.photos[0]!;
    expect(first.width / first.height).toBeCloseTo(4 / 3, 5);
    // Three rows of a grid take less than a page (648 pt of a Letter page are for content).
    expect(rows.reduce((sum, r) => sum + r.height, 0)).toBeLessThan(648 / 1.5);
  });

  it('puts two or four photos two to a row, and keeps a lone photo wide but never enlarged', () => {
    expect(photoGrid([{ width: 800, height: 600 }, { width: 800, height: 600 }], AREA).map((r) => r.photos.length)).toEqual([2]);
    expect(photoGrid(Array.from({ length: 4 }, () => ({ width: 800, height: 600 })), AREA).map((r) => r.photos.length)).toEqual([2, 2]);
    const [alone] = photoGrid([{ width: 2000, height: 1000 }], AREA);
    expect(alone!.photos[0]).toMatchObject({ x: 0, width: AREA, height: AREA / 2 });
    const [small] = photoGrid([{ width: 100, height: 80 }], AREA);
    expect(small!.photos[0]).toMatchObject({ width: 100, height: 80, x: (AREA - 100) / 2 });
  });
});

describe('a PDF of an entry with many photos', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-11-17T01:57:00Z'));
  });
  afterAll(() => t.close());

  const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

  it('fits a day’s photos on the entry’s page instead of one page per photo', async () => {
    const writer = await journalUser(t);
    const entry = await createEntry(t, writer, { content: 'A long walk around the lake, with photos.', entry_date: '2026-11-16' });
    const photos = await Promise.all(Array.from({ length: 6 }, async (_, i) => ({ name: `lake-${i}.jpg`, bytes: await testImage('jpeg', { width: 800, height: 600 }) })));
    expect(photos.length).toBeLessThanOrEqual(PHOTOS_PER_ENTRY_MAX);
    const form = await multipart({}, photos);
    const upload = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...writer.headers, ...form.headers }, payload: form.payload });
    expect(upload.statusCode).toBeLessThan(300);

    const res = await t.app.inject({ method: 'GET', url: '/api/export?format=pdf&photos=true', headers: writer.headers });
    expect(res.statusCode).toBe(200);
    const pdf = res.rawPayload;
    expect((pdf.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length).toBe(6);
    // The title page, then the entry with its six photos on one page.
    expect(pageCount(pdf)).toBe(2);
  });
});
