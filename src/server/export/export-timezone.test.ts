import { strFromU8, unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CachedEntry } from '../journal/cache';
import { createEntry, journalUser, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { isoInZone } from '../../shared/export-render';
import { renderPdf } from '../../shared/pdf';
import { pageLines } from '../../shared/test/pdf';
import { readPdfFont } from './pdf-fonts';

// 01:57 UTC on November 17th is 3:57 PM on Monday, November 16th in Honolulu (UTC-10)
// and 3:57 PM on Tuesday, November 17th on Kiritimati (UTC+14).
const NOW = new Date('2026-11-17T01:57:00Z');

describe('exports show dates and times in the profile’s timezone', () => {
  let t: TestApp;
  let honolulu: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(NOW);
    honolulu = await journalUser(t, { timezone: 'Pacific/Honolulu' });
    await createEntry(t, honolulu, { content: 'Sunset swim', entry_date: '2026-11-16' });
    // A past day filled in today: it says when it was written.
    await createEntry(t, honolulu, { content: 'Remembered the hike', entry_date: '2026-11-10' });
  });
  afterAll(() => t.close());

  const exportAs = async (u: JournalTestUser, format: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/export?format=${format}`, headers: u.headers });
    expect(res.statusCode).toBe(200);
    return res;
  };

  it('plain text: the entry’s local time, when it was exported, and which zone the times are in', async () => {
    const text = (await exportAs(honolulu, 'txt')).body;
    expect(text).toContain('Exported Monday, November 16, 2026 at 3:57 PM HST');
    expect(text).toContain('Times in Pacific/Honolulu');
    expect(text).toContain('Monday, November 16, 2026 · 3:57 PM · Web');
    expect(text).toContain('Tuesday, November 10, 2026 · Written Monday, November 16, 2026 at 3:57 PM · Web');
    expect(text).not.toMatch(/1:57 AM/);
  });

  it('Markdown says the same', async () => {
    const md = (await exportAs(honolulu, 'md')).body;
    expect(md).toContain('*Exported Monday, November 16, 2026 at 3:57 PM HST');
    expect(md).toContain('## Monday, November 16, 2026\n\n*3:57 PM · Web*');
  });

  it('JSON keeps UTC instants and adds the local times with their offset and the zone', async () => {
    const body = (await exportAs(honolulu, 'json')).json();
    expect(body.timezone).toBe('Pacific/Honolulu');
    expect(body.exported_at).toBe('2026-11-17T01:57:00.000Z');
    expect(body.entries[0]).toMatchObject({ entry_date: '2026-11-16', created_at: '2026-11-17T01:57:00.000Z', created_at_local: '2026-11-16T15:57:00-10:00' });
  });

  it('a zone ahead of UTC gets its own day and offset', async () => {
    const kiritimati = await journalUser(t, { timezone: 'Pacific/Kiritimati' });
    await createEntry(t, kiritimati, { content: 'Morning', entry_date: '2026-11-17' });
    const res = await exportAs(kiritimati, 'txt');
    expect(res.headers['content-disposition']).toContain('journal-export-2026-11-17.txt');
    expect(res.body).toContain('Tuesday, November 17, 2026 · 3:57 PM · Web');
    expect(isoInZone('2026-11-17T01:57:00.000Z', 'Pacific/Kiritimati')).toBe('2026-11-17T15:57:00+14:00');
    expect(isoInZone('2026-11-17T01:57:00.000Z', 'UTC')).toBe('2026-11-17T01:57:00+00:00');
  });

  it('every format shows an entry’s times in its own zone, as the journal does, after the profile moved', async () => {
    // Written in Tokyo at 10:57 AM on Tuesday the 17th; the profile has moved to Honolulu since.
    const traveller = await journalUser(t, { timezone: 'Asia/Tokyo' });
    await createEntry(t, traveller, { content: 'Ramen near the station', entry_date: '2026-11-17' });
    const moved = await t.app.inject({ method: 'PATCH', url: '/api/profile', headers: traveller.headers, payload: { timezone: 'Pacific/Honolulu' } });
    expect(moved.statusCode).toBe(200);

    const text = (await exportAs(traveller, 'txt')).body;
    expect(text).toContain('Tuesday, November 17, 2026 · 10:57 AM · Tokyo time · Web');
    // Not the profile's zone, where it was the evening before: 'Written Monday, November 16… 3:57 PM'.
    expect(text).not.toContain('3:57 PM ·');
    expect(text).toContain('Times in Pacific/Honolulu');
    expect((await exportAs(traveller, 'md')).body).toContain('## Tuesday, November 17, 2026\n\n*10:57 AM · Tokyo time · Web*');
    const json = (await exportAs(traveller, 'json')).json();
    expect(json.entries[0]).toMatchObject({ time_zone: 'Asia/Tokyo', created_at: '2026-11-17T01:57:00.000Z', created_at_local: '2026-11-17T10:57:00+09:00' });
    expect(json.timezone).toBe('Pacific/Honolulu');
    // The ZIP (Day One's format) carries the instant in UTC and the entry's zone beside it.
    const zip = unzipSync(new Uint8Array((await exportAs(traveller, 'zip')).rawPayload));
    const dayOne = JSON.parse(strFromU8(zip['Journal.json']!));
    expect(dayOne.entries[0]).toMatchObject({ creationDate: '2026-11-17T01:57:00Z', timeZone: 'Asia/Tokyo' });
  });

  it('the PDF prints the same local times, an entry’s own zone too', async () => {
    const entry = (over: Partial<CachedEntry>) =>
      ({ id: 'e', title: null, content: 'Sunset swim', source: 'web', tags: [], photos: [], entry_date: '2026-11-16', created_at: NOW.toISOString(), updated_at: NOW.toISOString(), time_zone: 'Pacific/Honolulu', ...over }) as unknown as CachedEntry;
    const chunks: Uint8Array[] = [];
    const entries = [entry({}), entry({ entry_date: '2026-11-17', time_zone: 'Asia/Tokyo' }), entry({ entry_date: '2026-11-10' })];
    await renderPdf({ entries, timezone: 'Pacific/Honolulu', exportedAt: NOW, today: '2026-11-16', photos: false }, { font: readPdfFont, photo: async () => null }, (bytes) => void chunks.push(bytes));
    const doc = await PDFDocument.load(Buffer.concat(chunks));
    const lines = doc.getPages().flatMap((page) => pageLines(doc, page));
    expect(lines).toContain('Exported Monday, November 16, 2026 at 3:57 PM HST');
    expect(lines).toContain('Times in Pacific/Honolulu');
    expect(lines).toContain('3:57 PM · Web');
    expect(lines).toContain('10:57 AM · Tokyo time · Web');
    expect(lines).toContain('Written Monday, November 16, 2026 at 3:57 PM · Web');
  });
});
