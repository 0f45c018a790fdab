import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { newId } from '../ids';
import { appendSmsToDayEntry } from '../journal/sms-entries';
import { createEntry, journalUser, listEntries, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { importFile } from '../test/import';

describe('our own JSON export, imported again', () => {
  let t: TestApp;
  let writer: JournalTestUser;
  let exported: Buffer;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-03-01T15:00:00Z'));
    writer = await journalUser(t, { timezone: 'America/Chicago' });
    await createEntry(t, writer, { content: 'First day.\n\nTwo paragraphs, café ☕.', title: 'Beginnings', tags: 'new, hope', entry_date: '2026-01-01' });
    t.clock.advance(60_000);
    const pictured = await createEntry(t, writer, { content: 'With a picture', entry_date: '2026-02-14' });
    const form = await multipart({}, [{ name: 'heart.png', bytes: await testImage('png') }]);
    await t.app.inject({ method: 'POST', url: `/api/entries/${pictured.id}/photos`, headers: { ...writer.headers, ...form.headers }, payload: form.payload });
    t.clock.advance(60_000);
    await appendSmsToDayEntry(t.app.ctx, { userId: writer.id, messageId: newId(), text: 'Texted from the bus', receivedAt: new Date('2026-02-20T13:00:00Z'), media: [] });
    const res = await t.app.inject({ method: 'GET', url: '/api/export?format=json&photos=true', headers: writer.headers });
    expect(res.statusCode).toBe(200);
    exported = res.rawPayload;
  });
  afterAll(() => t.close());

  /** What makes two journals the same, whatever the entry ids. */
  const journalOf = async (user: JournalTestUser) =>
    (await listEntries(t, user, '?limit=100')).entries
      .map(({ title, content, tags, source, entry_date, created_at, updated_at, word_count }: JournalEntry) => ({ title, content, tags, source, entry_date, created_at, updated_at, word_count }))
      .sort((a, b) => (a.created_at < b.created_at ? -1 : 1));

  it('gives a new account the same journal: dates, titles, text, tags and sources', async () => {
    const newcomer = await journalUser(t, { timezone: 'Europe/Berlin' });
    const res = await importFile(t, newcomer.headers, exported, 'journal-export.json');
    expect(res).toMatchObject({ status: 'done', imported: 3, skipped: 0, photos_skipped: 1 });
    // The JSON export names its photos; the ZIP export carries them.
    expect(res.reasons.map((r) => r.reason)).toEqual(['photo_not_in_file']);
    const original = await journalOf(writer);
    expect(original.map((e) => e.source).sort()).toEqual(['sms', 'web', 'web']);
    expect(await journalOf(newcomer)).toEqual(original);
    // The export lists photos by name only (it carries no image bytes), so they cannot come back.
    expect((await listEntries(t, newcomer)).entries.every((e) => e.photos.length === 0)).toBe(true);
    // Imported twice, nothing more.
    expect(await importFile(t, newcomer.headers, exported)).toMatchObject({ imported: 0, skipped: 3 });
  });

  it('adds nothing when imported back into the journal it came from', async () => {
    expect(await importFile(t, writer.headers, exported)).toMatchObject({ imported: 0, skipped: 3 });
    expect(await journalOf(writer)).toHaveLength(3);
  });

  it('keeps a second SMS entry for a day that already has one as a web entry, losing nothing', async () => {
    const texter = await journalUser(t, { timezone: 'America/Chicago' });
    await appendSmsToDayEntry(t.app.ctx, { userId: texter.id, messageId: newId(), text: 'My own text that day', receivedAt: new Date('2026-02-20T14:00:00Z'), media: [] });
    expect(await importFile(t, texter.headers, exported)).toMatchObject({ imported: 3 });
    const day = (await journalOf(texter)).filter((e) => e.entry_date === '2026-02-20');
    expect(day.map((e) => [e.content, e.source]).sort()).toEqual([
      ['My own text that day', 'sms'],
      ['Texted from the bus', 'web'],
    ]);
  });
});
