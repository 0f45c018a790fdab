import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app';
import { createEntry, journalUser, listEntries, multipart, testImage } from './test-helpers';

const NOW = new Date('2026-05-10T12:01:00Z');

describe('GET /api/entries pages kept between requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const page = (headers: Record<string, string>, query = '') => t.app.inject({ method: 'GET', url: `/api/entries${query}`, headers });

  it('answers the same page as JSON, and never a page older than the journal', async () => {
    t.clock.set(NOW);
    const user = await journalUser(t);
    const first = await createEntry(t, user, { content: 'First words: café ☕, 日記, 😀' });
    const a = await page(user.headers);
    const b = await page(user.headers);
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(a.headers['content-length'])).toBe(a.rawPayload.length);
    expect(a.json().entries[0].content).toBe('First words: café ☕, 日記, 😀');
    expect(b.body).toBe(a.body);

    const edited = await t.app.inject({ method: 'PATCH', url: `/api/entries/${first.id}`, headers: user.headers, payload: { content: 'Edited words' } });
    expect(edited.statusCode).toBe(200);
    expect((await listEntries(t, user)).entries.map((e) => e.content)).toEqual(['Edited words']);
    t.clock.advance(60_000);
    await createEntry(t, user, { content: 'Second entry' });
    expect((await listEntries(t, user)).entries.map((e) => e.content)).toEqual(['Second entry', 'Edited words']);
    expect((await listEntries(t, user, '?q=edited')).entries.map((e) => e.content)).toEqual(['Edited words']);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/entries/${first.id}`, headers: user.headers });
    expect(removed.statusCode).toBe(204);
    expect((await listEntries(t, user, '?q=edited')).entries).toEqual([]);
  });

  it('keeps each user’s pages to that user, whatever the query', async () => {
    t.clock.set(NOW);
    const ann = await journalUser(t);
    const bob = await journalUser(t);
    await createEntry(t, ann, { content: 'Ann went walking' });
    await createEntry(t, bob, { content: 'Bob went walking' });
    for (const query of ['', '?q=walking']) {
      expect((await listEntries(t, ann, query)).entries.map((e) => e.content)).toEqual(['Ann went walking']);
      expect((await listEntries(t, bob, query)).entries.map((e) => e.content)).toEqual(['Bob went walking']);
    }
  });

  it('renews photo links as time passes, and the links it gives open the photo', async () => {
    t.clock.set(NOW);
    const user = await journalUser(t);
    const entry = await createEntry(t, user, { content: 'With a photo' });
    const form = await multipart({}, [{ name: 'view.png', bytes: await testImage('png') }]);
    const added = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
    expect(added.statusCode).toBe(201);

    const before = (await listEntries(t, user)).entries[0]!.photos[0]!;
    t.clock.advance(50 * 60_000);
    const later = (await listEntries(t, user)).entries[0]!.photos[0]!;
    expect(later.url).not.toBe(before.url);
    // Fifty minutes on, a link issued then still works; the page did not hand out the old one.
    const opened = await t.app.inject({ method: 'GET', url: later.url });
    expect(opened.statusCode).toBe(200);
    const expiry = (url: string) => Number(new URL(url, 'http://x').searchParams.get('exp'));
    expect(expiry(later.url) - expiry(before.url)).toBeGreaterThanOrEqual(45 * 60);
  });
});
