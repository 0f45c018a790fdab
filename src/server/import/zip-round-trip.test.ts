import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { newId } from '../ids';
import { testAudio } from '../test/audio';
import { addRecording } from '../voice/recordings';
import { appendSmsToDayEntry } from '../journal/sms-entries';
import { createEntry, journalUser, listEntries, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { parseDayOne } from '../../shared/import/day-one';
import { brisbaneTrip, importFile, md5 } from '../test/import';

describe('the ZIP export is a backup: it imports into a new account whole', () => {
  let t: TestApp;
  let writer: JournalTestUser;
  let zip: Buffer;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-03-01T15:00:00Z'));
    writer = await journalUser(t, { timezone: 'America/Chicago' });
    // Titles, tags (one of them "starred"), Markdown-looking punctuation, a past day filled in later.
    await createEntry(t, writer, { content: 'First day.\n\n# Not a heading, *not* emphasis: C:\\temp\\new [1]', title: 'Beginnings #1', tags: 'starred, new, hope', entry_date: '2026-01-01' });
    t.clock.advance(60_000);
    const pictured = await createEntry(t, writer, { content: 'Two pictures', title: 'Valentine', entry_date: '2026-02-14' });
    const form = await multipart({}, [
      { name: 'heart.png', bytes: await testImage('png', { width: 120, height: 90 }) },
      { name: 'roses.jpg', bytes: await testImage('jpeg', { width: 320, height: 240 }) },
    ]);
    expect((await t.app.inject({ method: 'POST', url: `/api/entries/${pictured.id}/photos`, headers: { ...writer.headers, ...form.headers }, payload: form.payload })).statusCode).toBe(201);
    // A day of texts long enough to go on in a second SMS entry.
    t.clock.advance(60_000);
    await appendSmsToDayEntry(t.app.ctx, { userId: writer.id, messageId: newId(), text: 'Texted from the bus', receivedAt: new Date('2026-02-20T13:00:00Z'), media: [] });
    await appendSmsToDayEntry(t.app.ctx, { userId: writer.id, messageId: newId(), text: 'word '.repeat(2000).trim(), receivedAt: new Date('2026-02-20T14:00:00Z'), media: [] });
    // Voice notes: one transcribed (its words joined the text), one not.
    t.clock.advance(60_000);
    const spoken = await createEntry(t, writer, { content: 'Spoken on the ferry', entry_date: '2026-02-22' });
    await addRecording(t.app.ctx, writer.id, { audio: await testAudio('m4a', 3), origin: 'web', receivedAt: t.clock.now(), entryId: spoken.id, transcript: 'Gulls everywhere' });
    t.clock.advance(60_000);
    await addRecording(t.app.ctx, writer.id, { audio: await testAudio('ogg-opus', 2), origin: 'web', receivedAt: t.clock.now(), entryId: spoken.id });
    // Entries from a Day One trip keep their own zones and photos.
    await importFile(t, writer.headers, (await brisbaneTrip()).zip, 'Brisbane.zip');

    const res = await t.app.inject({ method: 'GET', url: '/api/export?format=zip', headers: writer.headers });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="journal-export-2026-03-01.zip"');
    zip = res.rawPayload;
  });
  afterAll(() => t.close());

  /** An entry as the API shows it, with its zone as shown, and its photos and recordings as a reader gets them. */
  const journalOf = async (user: JournalTestUser, accountZone: string) => {
    const entries = (await listEntries(t, user, '?limit=100')).entries.sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
    return Promise.all(
      entries.map(async ({ title, content, tags, source, entry_date, created_at, updated_at, word_count, time_zone, photos, recordings }: JournalEntry) => ({
        title,
        content,
        tags,
        source,
        entry_date,
        created_at,
        updated_at,
        word_count,
        zone: time_zone ?? accountZone,
        photos: await Promise.all(
          photos.map(async (p) => {
            const { width, height } = await sharp((await t.app.inject({ method: 'GET', url: p.url })).rawPayload).metadata();
            return { file_name: p.file_name, mime_type: p.mime_type, width, height };
          }),
        ),
        recordings: await Promise.all(
          (recordings ?? []).map(async (r) => ({
            mime_type: r.mime_type,
            duration_seconds: r.duration_seconds,
            transcript: r.transcript,
            transcript_status: r.transcript_status,
            audio: md5((await t.app.inject({ method: 'GET', url: r.url })).rawPayload),
          })),
        ),
      })),
    );
  };

  it('is a Day One export: Journal.json names each photo by md5 and identifier, photos/ holds them', () => {
    const files = unzipSync(new Uint8Array(zip));
    const photoNames = Object.keys(files).filter((n) => n.startsWith('photos/')).sort();
    expect(photoNames).toHaveLength(5);
    for (const name of photoNames) expect(name).toBe(`photos/${createHash('md5').update(files[name]!).digest('hex')}.${name.split('.')[1]}`);
    const journal = JSON.parse(new TextDecoder().decode(files['Journal.json']));
    expect(journal.metadata).toEqual({ version: '1.0' });
    const valentine = journal.entries.find((e: { text: string }) => e.text.startsWith('# Valentine'));
    expect(valentine).toMatchObject({ uuid: expect.stringMatching(/^[0-9A-F]{32}$/), creationDate: '2026-03-01T15:01:00Z', timeZone: 'America/Chicago', tags: [], starred: false });
    expect(valentine.photos.map((p: { filename: string; type: string; orderInEntry: number }) => [p.filename, p.type, p.orderInEntry])).toEqual([
      ['heart.png', 'png', 0],
      ['roses.jpg', 'jpeg', 1],
    ]);
    expect(valentine.text).toBe(`# Valentine\n\nTwo pictures\n\n${valentine.photos.map((p: { identifier: string }) => `![](dayone-moment://${p.identifier})`).join('\n')}`);
    const first = journal.entries.find((e: { text: string }) => e.text.startsWith('# Beginnings'));
    expect([first.starred, first.tags, first.text.split('\n')[0]]).toEqual([true, ['starred', 'new', 'hope'], '# Beginnings \\#1']);
    // Any Day One reader gets the same entries (our own reader, told nothing of our fields).
    const asDayOne = parseDayOne({ ...journal, entries: journal.entries.map(({ jotline: _, ...e }: Record<string, unknown>) => e) }, 'UTC');
    expect(asDayOne.find((e) => e.title === 'Beginnings #1')!.content).toBe('First day.\n\n# Not a heading, *not* emphasis: C:\\temp\\new [1]');
    expect(asDayOne.find((e) => e.title === 'South Bank at dawn')!.timeZone).toBe('Australia/Brisbane');
  });

  it('imports into a new account with photos, recordings, dates, zones, tags and sources intact, field by field', async () => {
    const newcomer = await journalUser(t, { timezone: 'Europe/Berlin' });
    const result = await importFile(t, newcomer.headers, zip, 'journal-export.zip');
    expect(result).toMatchObject({ status: 'done', total: 10, imported: 10, skipped: 0, photos_imported: 5, photos_skipped: 0, reasons: [] });
    const original = await journalOf(writer, 'America/Chicago');
    expect(original.map((e) => e.source).sort()).toEqual(['sms', 'sms', 'web', 'web', 'web', 'web', 'web', 'web', 'web', 'web']);
    expect(await journalOf(newcomer, 'Europe/Berlin')).toEqual(original);
    expect(original.find((e) => e.title === 'Valentine')!.photos).toEqual([
      { file_name: 'heart.png', mime_type: 'image/png', width: 120, height: 90 },
      { file_name: 'roses.jpg', mime_type: 'image/jpeg', width: 320, height: 240 },
    ]);
    // The transcript is in the text once, as it was, and on its recording.
    const spoken = original.find((e) => e.content.startsWith('Spoken on the ferry'))!;
    expect(spoken.content).toBe('Spoken on the ferry\n\nGulls everywhere');
    expect(spoken.recordings.map((r) => [r.mime_type, Math.round(r.duration_seconds), r.transcript, r.transcript_status])).toEqual([
      ['audio/mp4', 3, 'Gulls everywhere', 'done'],
      ['audio/ogg', 2, null, 'failed'],
    ]);
    // Imported twice, nothing more.
    expect(await importFile(t, newcomer.headers, zip, 'journal-export.zip')).toMatchObject({ imported: 0, skipped: 10, photos_imported: 0 });
    expect(await journalOf(newcomer, 'Europe/Berlin')).toEqual(original);
  });

  it('adds nothing when imported back into the journal it came from', async () => {
    const before = await journalOf(writer, 'America/Chicago');
    expect(await importFile(t, writer.headers, zip, 'journal-export.zip')).toMatchObject({ imported: 0, skipped: 10, photos_imported: 0 });
    expect(await journalOf(writer, 'America/Chicago')).toEqual(before);
  });
});
