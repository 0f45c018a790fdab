import { zipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { ENTRY_CONTENT_MAX } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { createEntry, journalUser, listEntries, multipart, testImage, type JournalTestUser } from '../journal/test-helpers';
import { buildTestApp, type TestApp } from '../test/app';
import { bearer, signIn } from '../test/factories';
import { dayOneZip, fixture, postImport } from './test-support';

describe('importing a journal: POST /api/import', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-05-10T12:00:00Z'));
  });
  afterAll(() => t.close());

  const importAs = (user: JournalTestUser, file: Buffer, name?: string) => postImport(t, user.headers, file, name);
  const allEntries = async (user: JournalTestUser) => (await listEntries(t, user, '?limit=100')).entries;

  it('brings in a Day One Journal.json: dates in each entry’s zone, headings as titles, tags, unescaped text', async () => {
    const user = await journalUser(t);
    const res = await importAs(user, fixture('dayone-journal.json'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ imported: 3, skipped: 0, photos_skipped: 0 });
    // Two entries share an instant (New Year's Eve in New York is New Year's Day in Tokyo): by day.
    const entries = (await allEntries(user)).sort((a, b) => (a.entry_date < b.entry_date ? 1 : -1));
    expect(entries.map((e) => [e.entry_date, e.title, e.tags, e.source])).toEqual([
      ['2024-01-01', 'Morning in Tokyo', ['travel', 'japan'], 'web'],
      ['2023-12-31', null, [], 'web'],
      ['2023-03-14', "Dinner at Luca's", ['food', 'friends'], 'web'],
    ]);
    expect(entries[2]!.content).toContain('The pasta was great!\n\nThings to remember:\n\n- the tiramisu (share it next time)');
    expect(entries[2]!.created_at).toBe('2023-03-15T03:30:00.000Z');

    // Encrypted at rest like every entry.
    const rows = await t.app.ctx.db.selectFrom('journal_entries').select(['content', 'title', 'tags']).where('user_id', '=', user.id).execute();
    for (const row of rows) {
      expect(row.content.startsWith('ENC:')).toBe(true);
      expect(row.tags.startsWith('ENC:')).toBe(true);
      expect(row.content).not.toContain('pasta');
    }
  });

  it('adds nothing when the same file is imported again', async () => {
    const user = await journalUser(t);
    expect((await importAs(user, fixture('dayone-journal.json'))).json()).toMatchObject({ imported: 3, skipped: 0 });
    expect((await importAs(user, fixture('dayone-journal.json'))).json()).toMatchObject({ imported: 0, skipped: 3 });
    expect(await allEntries(user)).toHaveLength(3);
    // Another user importing the same file gets their own copy.
    const other = await journalUser(t);
    expect((await importAs(other, fixture('dayone-journal.json'))).json()).toMatchObject({ imported: 3, skipped: 0 });
  });

  it('brings back an imported entry that was deleted, when the file is imported again', async () => {
    const user = await journalUser(t);
    await importAs(user, fixture('dayone-journal.json'));
    const [first] = await allEntries(user);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/entries/${first!.id}`, headers: user.headers })).statusCode).toBe(204);
    expect((await importAs(user, fixture('dayone-journal.json'))).json()).toMatchObject({ imported: 1, skipped: 2 });
    expect((await allEntries(user)).map((e) => e.title)).toContain('Morning in Tokyo');
  });

  it('attaches the photos of a Day One ZIP through the photo pipeline: metadata stripped, thumbnails made', async () => {
    const user = await journalUser(t);
    const jpeg = await testImage('jpeg', { width: 640, height: 480, exif: 'GPS-SECRET-LOCATION' });
    const heic = Buffer.from('not an image we can decode');
    const zip = dayOneZip({ first: jpeg, second: heic });
    const res = await importAs(user, zip, 'export.zip');
    expect(res.statusCode, res.body).toBe(200);
    // The HEIC photo cannot be kept (the journal keeps JPEG, PNG, GIF and WebP): it is counted, the entry comes in.
    expect(res.json()).toEqual({ imported: 3, skipped: 0, photos_skipped: 1 });
    const dinner = (await allEntries(user)).find((e) => e.title === "Dinner at Luca's")!;
    expect(dinner.photos).toHaveLength(1);
    const full = (await t.app.inject({ method: 'GET', url: dinner.photos[0]!.url })).rawPayload;
    expect(full.includes('GPS-SECRET-LOCATION')).toBe(false);
    expect((await sharp(full).metadata()).width).toBe(640);
    expect((await sharp((await t.app.inject({ method: 'GET', url: dinner.photos[0]!.thumbnail_url })).rawPayload).metadata()).format).toBe('webp');
    // Importing the ZIP again adds neither entries nor photos.
    expect((await importAs(user, zip, 'export.zip')).json()).toEqual({ imported: 0, skipped: 3, photos_skipped: 0 });
  });

  it('brings in every journal of a Day One ZIP that holds several', async () => {
    const user = await journalUser(t);
    const travel = { metadata: { version: '1.0' }, entries: [{ uuid: 'TRAVEL-1', creationDate: '2022-08-01T09:00:00Z', timeZone: 'Europe/Lisbon', text: '# Lisbon\nTrams and tiles\\.', tags: ['travel'] }] };
    const zip = Buffer.from(
      zipSync({
        'Journal.json': new Uint8Array(fixture('dayone-journal.json')),
        'Travel.json': new TextEncoder().encode(JSON.stringify(travel)),
        'videos/clip.mov': new Uint8Array([0, 0, 0, 20]),
      }),
    );
    expect((await importAs(user, zip, 'export.zip')).json()).toEqual({ imported: 4, skipped: 0, photos_skipped: 0 });
    const lisbon = (await allEntries(user)).find((e) => e.title === 'Lisbon')!;
    expect([lisbon.entry_date, lisbon.content, lisbon.tags]).toEqual(['2022-08-01', 'Trams and tiles.', ['travel']]);
  });

  it('brings in a jrnl journal, header times in the user’s time zone', async () => {
    const user = await journalUser(t, { timezone: 'America/New_York' });
    const res = await importAs(user, fixture('jrnl-journal.txt'), 'journal.txt');
    expect(res.json()).toEqual({ imported: 3, skipped: 0, photos_skipped: 0 });
    const entries = await allEntries(user);
    expect(entries.map((e) => [e.entry_date, e.title, e.tags])).toEqual([
      ['2022-06-03', 'Call with the landlord about the leak', []],
      ['2022-06-02', 'Long day!', ['work']],
      ['2022-06-01', 'Started the new job today', ['work', 'Sam']],
    ]);
    expect(entries[2]!.created_at).toBe('2022-06-01T11:15:00.000Z');
    expect((await importAs(user, fixture('jrnl-journal.txt'), 'journal.txt')).json()).toMatchObject({ imported: 0, skipped: 3 });
  });

  it('splits an entry longer than the entry limit into parts on the same day, losing nothing', async () => {
    const user = await journalUser(t);
    const paragraph = 'All work and no play makes a long entry. '.repeat(50).trim();
    const body = Array.from({ length: 8 }, () => paragraph).join('\n\n');
    expect(body.length).toBeGreaterThan(ENTRY_CONTENT_MAX);
    const res = await importAs(user, Buffer.from(`[2020-01-05 10:00] Very long day.\n${body}\n`), 'long.txt');
    expect(res.json()).toMatchObject({ imported: 2, skipped: 0 });
    const parts = (await allEntries(user)).sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
    expect(parts.map((p) => [p.entry_date, p.title])).toEqual([
      ['2020-01-05', 'Very long day (1/2)'],
      ['2020-01-05', 'Very long day (2/2)'],
    ]);
    expect(parts.every((p) => p.content.length <= ENTRY_CONTENT_MAX)).toBe(true);
    expect(parts.map((p) => p.content).join('\n\n')).toBe(body);
  });

  it('refuses an unknown or broken file with a clear message and imports nothing', async () => {
    const user = await journalUser(t);
    const cases: [Buffer, string, string][] = [
      [await testImage('png'), 'picture.png', messages.importer.unknownFormat],
      [Buffer.from('Dear diary, today was fine.'), 'notes.txt', messages.importer.unknownFormat],
      [Buffer.from('{"metadata": {"version": "1.0"}, "entries": [{"uuid": "A"'), 'Journal.json', messages.importer.brokenJson],
      [Buffer.from('{"hello": "world"}'), 'data.json', messages.importer.unknownFormat],
      [Buffer.from('PK\u0003\u0004 definitely not a real zip'), 'export.zip', messages.importer.brokenZip],
      [Buffer.from('{"metadata": {"version": "1.0"}, "entries": []}'), 'Journal.json', messages.importer.noEntries],
    ];
    for (const [bytes, name, message] of cases) {
      const res = await importAs(user, bytes, name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.message, name).toBe(message);
    }
    // One bad entry refuses the whole file: the good ones before it are not half-imported.
    const doc = JSON.parse(fixture('dayone-journal.json').toString('utf8'));
    doc.entries[2].creationDate = 'someday';
    const res = await importAs(user, Buffer.from(JSON.stringify(doc)));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(messages.importer.badEntry(3, '"someday" is not a date'));
    expect(await allEntries(user)).toEqual([]);
  });

  it('asks for a file when none is sent', async () => {
    const user = await journalUser(t);
    const form = await multipart({ note: 'no file' });
    const res = await t.app.inject({ method: 'POST', url: '/api/import', headers: { ...user.headers, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(messages.importer.noFile);
    const json = await t.app.inject({ method: 'POST', url: '/api/import', headers: user.headers, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
  });

  it('imports a journal of thousands of entries and several megabytes in one go', async () => {
    const user = await journalUser(t);
    const line = 'Another ordinary day, written down so it is not forgotten. '.repeat(16);
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const day = new Date(Date.UTC(2010, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      lines.push(`[${day} 21:00] Day ${i + 1}.`, line, '');
    }
    const file = Buffer.from(lines.join('\n'));
    expect(file.length).toBeGreaterThan(2 * 1024 * 1024);
    const res = await importAs(user, file, 'big.txt');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 3000, skipped: 0 });
    const stats = await t.app.inject({ method: 'GET', url: '/api/stats', headers: user.headers });
    expect(stats.json()).toMatchObject({ total_days: 3000 });
  });

  it('refuses a JSON or text file over 20 MB with 413', async () => {
    const user = await journalUser(t);
    const big = Buffer.alloc(21 * 1024 * 1024, 'a');
    const res = await importAs(user, big, 'huge.txt');
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe(messages.importer.tooLarge);
  });

  it('refuses a ZIP over 100 MB with 413 while it is still arriving', async () => {
    const user = await journalUser(t);
    const big = Buffer.alloc(101 * 1024 * 1024);
    big.write('PK\u0003\u0004');
    const res = await importAs(user, big, 'export.zip');
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe(messages.importer.tooLarge);
  });

  it('rolls everything back when writing fails part-way, photo files included', async () => {
    const user = await journalUser(t);
    const storage = t.app.ctx.storage;
    const stored = new Set<string>();
    let puts = 0;
    t.app.ctx.storage = {
      ...storage,
      async put(key, body, type) {
        puts += 1;
        // The thumbnail of the first photo fails to store, after the photo itself was written.
        if (puts === 2) throw new Error('disk full');
        await storage.put(key, body, type);
        stored.add(key);
      },
      async delete(key) {
        await storage.delete(key);
        stored.delete(key);
      },
    };
    try {
      const zip = dayOneZip({ first: await testImage('jpeg'), second: await testImage('png') });
      const res = await importAs(user, zip, 'export.zip');
      expect(res.statusCode).toBe(500);
    } finally {
      t.app.ctx.storage = storage;
    }
    expect(puts).toBe(2);
    expect(stored.size).toBe(0);
    expect(await allEntries(user)).toEqual([]);
    expect(await t.app.ctx.db.selectFrom('journal_imports').select('fingerprint').where('user_id', '=', user.id).execute()).toEqual([]);
    // And the file imports fine afterwards.
    expect((await importAs(user, fixture('dayone-journal.json'))).json()).toMatchObject({ imported: 3 });
  });

  it('allows 10 imports in 15 minutes per user', async () => {
    const user = await journalUser(t);
    for (let i = 0; i < 10; i++) expect((await importAs(user, fixture('jrnl-journal.txt'), 'journal.txt')).statusCode).toBe(200);
    const refused = await importAs(user, fixture('jrnl-journal.txt'), 'journal.txt');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(messages.importer.rateLimited);
    t.clock.advance(15 * 60 * 1000 + 1);
    const later = { ...user, headers: bearer(await signIn(t, user)) };
    expect((await importAs(later, fixture('jrnl-journal.txt'), 'journal.txt')).statusCode).toBe(200);
  });

  it('needs sign-in, but not a running trial: a user whose access ended can bring their journal in', async () => {
    const anonymous = await postImport(t, {}, fixture('dayone-journal.json'));
    expect(anonymous.statusCode).toBe(401);
    const expired = await journalUser(t, { trialEnd: new Date('2026-05-01T00:00:00Z') });
    const res = await importAs(expired, fixture('jrnl-journal.txt'), 'journal.txt');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ imported: 3 });
  });

  it('tells the user’s open pages that entries changed', async () => {
    const user = await journalUser(t);
    await createEntry(t, user, { content: 'Written before the import' });
    await allEntries(user); // the journal is now cached
    const heard: unknown[] = [];
    const unsubscribe = t.app.ctx.events.subscribe(user.id, (event) => heard.push(event));
    await importAs(user, fixture('jrnl-journal.txt'), 'journal.txt');
    unsubscribe();
    expect(heard).toEqual([{ type: 'entries.changed' }]);
    expect((await allEntries(user)).map((e: JournalEntry) => e.content)).toHaveLength(4);
  });
});
