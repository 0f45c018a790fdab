import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { buildTestApp, type TestApp } from '../test/app';
import { journalUser, listEntries, testImage, type JournalTestUser } from '../test/journal';
import { brisbaneTrip, fixture, importFile, md5 } from '../test/import';

describe('importing a Day One export with its photos', () => {
  let t: TestApp;
  let trip: Awaited<ReturnType<typeof brisbaneTrip>>;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-05-10T12:00:00Z'));
    trip = await brisbaneTrip();
  });
  afterAll(() => t.close());

  const allEntries = async (user: JournalTestUser) => (await listEntries(t, user, '?limit=100')).entries;
  const find = (entries: JournalEntry[], text: string) => entries.find((e) => e.title === text || e.content.startsWith(text))!;

  it('keeps every entry in its own zone: the Brisbane morning is 4 March at 5:34 AM there, whatever the account’s zone', async () => {
    const user = await journalUser(t, { timezone: 'America/Chicago' });
    const result = await importFile(t, user.headers, trip.zip, 'Brisbane.zip');
    expect(result).toMatchObject({ status: 'done', total: 5, imported: 5, skipped: 0, photos_imported: 3, photos_skipped: 2 });
    const dawn = find(await allEntries(user), 'South Bank at dawn');
    // 19:34 UTC on 3 March: 4 March, 5:34 AM in Brisbane (1:34 PM on the 3rd in Chicago).
    expect([dawn.entry_date, dawn.created_at, dawn.time_zone]).toEqual(['2024-03-04', '2024-03-03T19:34:00.000Z', 'Australia/Brisbane']);
    const liberty = find(await allEntries(user), 'Lady Liberty, New York City, NY');
    expect([liberty.entry_date, liberty.time_zone]).toEqual(['2024-03-06', 'America/New_York']);
  });

  it('keeps title-only and photo-only entries, starred as a tag, and says what was left out and why', async () => {
    const user = await journalUser(t);
    const result = await importFile(t, user.headers, trip.zip, 'Brisbane.zip');
    expect(result.reasons).toEqual([
      { reason: 'photo_missing', count: 1, examples: ['d41d8cd98f00b204e9800998ecf8427e.jpeg (2024-03-06)'] },
      { reason: 'photo_unsupported', count: 1, examples: [expect.stringMatching(/^[0-9a-f]{32}\.heic \(2024-03-07\)$/)] },
      { reason: 'audio_unreadable', count: 1, examples: ['7b2c3d4e5f60718293a4b5c6d7e8f90a.m4a (2024-03-04)'] },
      { reason: 'video', count: 1, examples: ['6a1b2c3d4e5f60718293a4b5c6d7e8f9.mov (2024-03-04)'] },
    ]);
    expect(messages.importer.reasons.photo_missing(2)).toBe('2 photos named in the file are missing from the ZIP');
    const entries = await allEntries(user);
    const dawn = find(entries, 'South Bank at dawn');
    expect([dawn.content, dawn.tags, dawn.photos.length]).toEqual(['Walked along the river before the heat. The ferries were already busy!', ['travel', 'brisbane', 'starred'], 1]);
    // A heading and photos: the title, no text, its photo.
    const liberty = find(entries, 'Lady Liberty, New York City, NY');
    expect([liberty.title, liberty.content, liberty.photos.length]).toEqual(['Lady Liberty, New York City, NY', '', 1]);
    // Only a photo.
    const koala = entries.find((e) => e.entry_date === '2024-03-05')!;
    expect([koala.title, koala.content, koala.photos.map((p) => p.mime_type)]).toEqual([null, '', ['image/png']]);
    // A heading whose only photo is HEIC: the heading is kept as the entry's text.
    expect(find(entries, 'Last night in Brisbane')).toMatchObject({ title: null, content: 'Last night in Brisbane', photos: [] });
  });

  it('brings photos in through the photo pipeline: metadata stripped, thumbnails made', async () => {
    const user = await journalUser(t);
    await importFile(t, user.headers, trip.zip, 'Brisbane.zip');
    const dawn = find(await allEntries(user), 'South Bank at dawn');
    const full = (await t.app.inject({ method: 'GET', url: dawn.photos[0]!.url })).rawPayload;
    expect(full.includes('GPS-SOUTH-BANK')).toBe(false);
    expect((await sharp(full).metadata()).width).toBe(640);
    expect((await sharp((await t.app.inject({ method: 'GET', url: dawn.photos[0]!.thumbnail_url })).rawPayload).metadata()).format).toBe('webp');
  });

  it('adds the photos of a ZIP imported after its Journal.json to the entries already imported', async () => {
    const user = await journalUser(t);
    const json = await importFile(t, user.headers, trip.json, 'Journal.json');
    // The photo-only entry has nothing to show without its photo; the rest come in.
    expect(json).toMatchObject({ status: 'done', total: 5, imported: 4, skipped: 1, photos_imported: 0, photos_skipped: 5 });
    expect(json.reasons.map((r) => [r.reason, r.count])).toEqual([
      ['empty', 1],
      ['photo_not_in_file', 5],
      ['audio_not_in_file', 1],
      ['video', 1],
    ]);
    expect((await allEntries(user)).every((e) => e.photos.length === 0)).toBe(true);

    const zip = await importFile(t, user.headers, trip.zip, 'Brisbane.zip');
    expect(zip).toMatchObject({ status: 'done', total: 5, imported: 1, skipped: 4, photos_imported: 3, photos_skipped: 2 });
    const entries = await allEntries(user);
    expect(entries).toHaveLength(5);
    expect(find(entries, 'South Bank at dawn').photos).toHaveLength(1);
    expect(find(entries, 'Lady Liberty, New York City, NY').photos).toHaveLength(1);
    expect(entries.find((e) => e.entry_date === '2024-03-05')!.photos).toHaveLength(1);

    // And once more: nothing new, no photo twice.
    expect(await importFile(t, user.headers, trip.zip, 'Brisbane.zip')).toMatchObject({ imported: 0, skipped: 5, photos_imported: 0 });
    expect((await allEntries(user)).reduce((n, e) => n + e.photos.length, 0)).toBe(3);
  });

  it('reads a ZIP that was unpacked and packed again in its folder, and keeps ten photos of an entry, counting the rest', async () => {
    const user = await journalUser(t);
    const { zipSync } = await import('fflate');
    const pictures = await Promise.all(Array.from({ length: 11 }, (_, i) => testImage('png', { width: 20 + i, height: 20 })));
    const entry = {
      uuid: 'ELEVEN',
      creationDate: '2024-05-01T10:00:00Z',
      timeZone: 'Europe/Paris',
      text: '# Eleven pictures',
      photos: pictures.map((p, i) => ({ identifier: `P${i}`, md5: md5(p), type: 'png', orderInEntry: i })),
    };
    const files: Record<string, Uint8Array> = { 'Export - Journal/Journal.json': new TextEncoder().encode(JSON.stringify({ metadata: { version: '1.0' }, entries: [entry] })) };
    for (const p of pictures) files[`Export - Journal/photos/${md5(p)}.png`] = new Uint8Array(p);
    const result = await importFile(t, user.headers, Buffer.from(zipSync(files)), 'Export - Journal.zip');
    expect(result).toMatchObject({ status: 'done', imported: 1, photos_imported: 10, photos_skipped: 1 });
    expect(result.reasons).toEqual([{ reason: 'photo_over_limit', count: 1, examples: [`${md5(pictures[10]!)}.png (2024-05-01)`] }]);
    const [eleven] = await allEntries(user);
    expect(eleven!.photos.map((p) => p.file_name)).toEqual(pictures.slice(0, 10).map((p) => `${md5(p)}.png`));
  });

  it('brings in every journal of a ZIP that holds several', async () => {
    const user = await journalUser(t);
    const { zipSync } = await import('fflate');
    const travel = { metadata: { version: '1.0' }, entries: [{ uuid: 'TRAVEL-1', creationDate: '2022-08-01T09:00:00Z', timeZone: 'Europe/Lisbon', text: '# Lisbon\nTrams and tiles\\.', tags: ['travel'] }] };
    const zip = Buffer.from(zipSync({ 'Journal.json': new Uint8Array(fixture('dayone-journal.json')), 'Travel.json': new TextEncoder().encode(JSON.stringify(travel)) }));
    expect(await importFile(t, user.headers, zip, 'export.zip')).toMatchObject({ status: 'done', total: 4, imported: 4 });
    expect(find(await allEntries(user), 'Lisbon')).toMatchObject({ entry_date: '2022-08-01', content: 'Trams and tiles.', tags: ['travel'], time_zone: 'Europe/Lisbon' });
  });
});
