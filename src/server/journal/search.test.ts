import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { newId } from '../ids';
import { buildTestApp, type TestApp } from '../test/app';
import { appendSmsToDayEntry } from './sms-entries';
import { createEntry, journalUser, listEntries, multipart, testImage, type JournalTestUser } from '../test/journal';

describe('searching and filtering the journal', () => {
  let t: TestApp;
  let user: JournalTestUser;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-05-10T12:00:00Z'));
    user = await journalUser(t);
    const add = async (name: string, body: Record<string, unknown>) => {
      ids[name] = (await createEntry(t, user, body)).id;
      t.clock.advance(60_000);
    };
    await add('river', { content: 'Walked along the River Thames', tags: 'walks, London', entry_date: '2026-05-01' });
    await add('cafe', { content: 'Coffee at the café with Sam', title: 'Sunday Brunch', entry_date: '2026-05-02' });
    await add('work', { content: 'Long day; the deploy went fine', tags: 'work', entry_date: '2026-05-03' });
    await add('phrase', { content: 'The dog walked me, not the other way', tags: 'walks', entry_date: '2026-05-04' });
    ids.sms = (await appendSmsToDayEntry(t.app.ctx, { userId: user.id, messageId: newId(), text: 'Texted from the river bank', receivedAt: t.clock.now(), media: [] })).entryId;
    t.clock.advance(60_000);
    await add('photo', { content: 'Sunset picture', entry_date: '2026-05-06' });
    const form = await multipart({}, [{ name: 'sunset.png', bytes: await testImage('png') }]);
    await t.app.inject({ method: 'POST', url: `/api/entries/${ids.photo}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
  });
  afterAll(() => t.close());

  const found = async (query: string) => (await listEntries(t, user, query)).entries.map((e) => Object.entries(ids).find(([, id]) => id === e.id)?.[0]);

  it("lists by the entry's date, newest first, whenever the entry was written", async () => {
    expect(await found('')).toEqual(['sms', 'photo', 'phrase', 'work', 'cafe', 'river']);
  });

  it('finds words in content, title and tags, ignoring case and accents', async () => {
    expect(await found('?q=river')).toEqual(['sms', 'river']);
    expect(await found('?q=BRUNCH')).toEqual(['cafe']);
    expect(await found('?q=london')).toEqual(['river']);
    expect(await found('?q=cafe')).toEqual(['cafe']);
    expect(await found('?q=CAFÉ')).toEqual(['cafe']);
  });

  it('needs every word, and "quoted words" as a phrase', async () => {
    expect(await found('?q=walked%20dog')).toEqual(['phrase']);
    expect(await found('?q=walked%20river')).toEqual(['river']);
    expect(await found('?q=%22dog%20walked%22')).toEqual(['phrase']);
    expect(await found('?q=%22walked%20dog%22')).toEqual([]);
    expect(await found('?q=nothing-like-this')).toEqual([]);
  });

  it('filters by days, both ends inclusive', async () => {
    expect(await found('?from=2026-05-02&to=2026-05-04')).toEqual(['phrase', 'work', 'cafe']);
    expect(await found('?from=2026-05-06')).toEqual(['sms', 'photo']);
    expect(await found('?from=2026-05-05&to=2026-05-06')).toEqual(['photo']);
    expect(await found('?from=2026-05-10&to=2026-05-10')).toEqual(['sms']);
    expect(await found('?to=2026-05-01')).toEqual(['river']);
  });

  it('filters by tags (every one given, any case), source and photos', async () => {
    expect(await found('?tags=walks')).toEqual(['phrase', 'river']);
    expect(await found('?tags=WALKS,london')).toEqual(['river']);
    expect(await found('?source=sms')).toEqual(['sms']);
    expect(await found('?source=web&q=river')).toEqual(['river']);
    expect(await found('?source=all&hasPhotos=true')).toEqual(['photo']);
    expect(await found('?hasPhotos=false')).toHaveLength(6);
  });

  it('pages with an opaque cursor until there is no next page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof listEntries>> = await listEntries(t, user, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual((await listEntries(t, user)).entries.map((e) => e.id));
    const filtered = await listEntries(t, user, '?limit=1&tags=walks');
    expect(filtered.nextCursor).not.toBeNull();
    expect((await listEntries(t, user, `?limit=1&tags=walks&cursor=${filtered.nextCursor}`)).entries[0]!.id).toBe(ids.river);
  });

  it('refuses bad paging and filter input', async () => {
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?source=fax', '?from=May', '?cursor=not-a-cursor']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/entries${query}`, headers: user.headers });
      expect(res.statusCode, query).toBe(400);
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/entries?cursor=bm9wZQ', headers: user.headers });
    expect(res.json().error.message).toBe(messages.entries.invalidCursor);
  });

  it('defaults to 20 entries a page and allows up to 100', async () => {
    const many = await journalUser(t);
    for (let i = 0; i < 25; i++) await createEntry(t, many, { content: `entry ${i}` });
    expect((await listEntries(t, many)).entries).toHaveLength(20);
    expect((await listEntries(t, many, '?limit=100')).entries).toHaveLength(25);
  });

  it('sees changes at once: new, edited and deleted entries', async () => {
    const other = await journalUser(t);
    const entry = await createEntry(t, other, { content: 'alpha' });
    expect((await listEntries(t, other, '?q=alpha')).entries).toHaveLength(1);
    await t.app.inject({ method: 'PATCH', url: `/api/entries/${entry.id}`, headers: other.headers, payload: { content: 'beta' } });
    expect((await listEntries(t, other, '?q=alpha')).entries).toHaveLength(0);
    expect((await listEntries(t, other, '?q=beta')).entries).toHaveLength(1);
    await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}`, headers: other.headers });
    expect((await listEntries(t, other, '?q=beta')).entries).toHaveLength(0);
  });
});
