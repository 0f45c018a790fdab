import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { buildTestApp, type TestApp } from '../test/app';
import { createEntry, journalUser, type JournalTestUser } from '../test/journal';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('journal entries', () => {
  let t: TestApp;
  let alice: JournalTestUser;
  let bob: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    alice = await journalUser(t);
    bob = await journalUser(t);
  });
  afterAll(() => t.close());

  const post = (user: JournalTestUser, payload: object) => t.app.inject({ method: 'POST', url: '/api/entries', headers: user.headers, payload });
  const patch = (user: JournalTestUser, id: string, payload: object) =>
    t.app.inject({ method: 'PATCH', url: `/api/entries/${id}`, headers: user.headers, payload });

  it('creates a web entry with normalised text, tags, word count and today as its date', async () => {
    t.clock.set(new Date('2026-03-04T15:00:00Z'));
    const res = await post(alice, { content: '  Walked   the\tdog  \n\n  by the river  ', title: '  Morning  walk ', tags: ' dogs, , river ,Dogs' });
    expect(res.statusCode).toBe(201);
    const entry = res.json();
    expect(entry).toMatchObject({
      content: 'Walked the dog\n\nby the river',
      title: 'Morning walk',
      tags: ['dogs', 'river'],
      source: 'web',
      entry_date: '2026-03-04',
      word_count: 6,
      photos: [],
      created_at: '2026-03-04T15:00:00.000Z',
    });
    expect(Object.keys(entry).sort()).toEqual(['content', 'created_at', 'entry_date', 'id', 'photos', 'recordings', 'source', 'tags', 'time_zone', 'title', 'updated_at', 'version', 'word_count']);
  });

  it('dates an entry in the profile timezone', async () => {
    t.clock.set(new Date('2026-03-05T03:00:00Z')); // 7 pm on the 4th in Los Angeles
    const la = await journalUser(t, { timezone: 'America/Los_Angeles' });
    expect((await createEntry(t, la, { content: 'late' })).entry_date).toBe('2026-03-04');
    expect((await createEntry(t, alice, { content: 'utc' })).entry_date).toBe('2026-03-05');
  });

  it('keeps an entry date that is given', async () => {
    expect((await createEntry(t, alice, { content: 'back then', entry_date: '2025-12-31' })).entry_date).toBe('2025-12-31');
    const bad = await post(alice, { content: 'x', entry_date: '2025-02-30' });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses empty content without photos', async () => {
    for (const content of ['', '   \n\t ']) {
      const res = await post(alice, { content });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'INVALID_INPUT', message: messages.entries.contentEmpty } });
    }
  });

  it('refuses content over 10,000 characters after whitespace is collapsed', async () => {
    const tooLong = await post(alice, { content: 'a'.repeat(10_001) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toBe('Content too long (max 10,000 characters)');
    expect((await post(alice, { content: 'a'.repeat(10_000) })).statusCode).toBe(201);
    expect((await post(alice, { content: `${'a'.repeat(9_998)}      b` })).statusCode).toBe(201);
  });

  it('cuts the title to 200 characters and tags to 50 characters and at most 10', async () => {
    const tags = Array.from({ length: 12 }, (_, i) => `${i}-${'t'.repeat(60)}`);
    const entry = await createEntry(t, alice, { content: 'x', title: 'T'.repeat(250), tags: tags.join(',') });
    expect(entry.title).toHaveLength(200);
    expect(entry.tags).toHaveLength(10);
    expect(entry.tags.every((tag) => tag.length === 50)).toBe(true);
    expect((await createEntry(t, alice, { content: 'x', tags: ['a, b', ' c '] })).tags).toEqual(['a', 'b', 'c']);
  });

  it('edits content, title and tags; only the fields sent change', async () => {
    const entry = await createEntry(t, alice, { content: 'first draft', title: 'Draft', tags: 'a' });
    t.clock.advance(60_000);
    const res = await patch(alice, entry.id, { content: 'second  draft with more words' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ content: 'second draft with more words', title: 'Draft', tags: ['a'], word_count: 5 });
    expect(res.json().updated_at > entry.updated_at).toBe(true);
    const cleared = await patch(alice, entry.id, { title: null, tags: '' });
    expect(cleared.json()).toMatchObject({ content: 'second draft with more words', title: null, tags: [] });
    const empty = await patch(alice, entry.id, { content: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(messages.entries.contentEmpty);
    expect((await patch(alice, entry.id, { content: 'x'.repeat(10_001) })).json().error.message).toBe(messages.entries.contentTooLong);
  });

  it('refuses a form sent to the edit endpoint (415) instead of answering 200 and changing nothing', async () => {
    const entry = await createEntry(t, alice, { content: 'kept as it was' });
    const form = '--b\r\nContent-Disposition: form-data; name="content"\r\n\r\nreplaced\r\n--b--\r\n';
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/entries/${entry.id}`,
      headers: { ...alice.headers, 'content-type': 'multipart/form-data; boundary=b' },
      payload: form,
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const list = await t.app.inject({ method: 'GET', url: '/api/entries', headers: alice.headers });
    expect(list.json().entries.find((e: { id: string }) => e.id === entry.id).content).toBe('kept as it was');
  });

  it('deletes an entry (204) and then it is gone', async () => {
    const entry = await createEntry(t, alice, { content: 'to delete' });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}`, headers: alice.headers });
    expect(res.statusCode).toBe(204);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}`, headers: alice.headers });
    expect(again.statusCode).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: '/api/entries?limit=100', headers: alice.headers });
    expect(list.json().entries.map((e: { id: string }) => e.id)).not.toContain(entry.id);
  });

  it("answers 404 for another user's entry on every endpoint, and changes nothing", async () => {
    const entry = await createEntry(t, alice, { content: 'private thoughts' });
    const attempts = [
      t.app.inject({ method: 'PATCH', url: `/api/entries/${entry.id}`, headers: bob.headers, payload: { content: 'mine now' } }),
      t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}`, headers: bob.headers }),
      t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}/photos/nope`, headers: bob.headers }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    const bobs = await t.app.inject({ method: 'GET', url: '/api/entries', headers: bob.headers });
    expect(bobs.json().entries).toEqual([]);
    const alices = await t.app.inject({ method: 'GET', url: '/api/entries?q=private', headers: alice.headers });
    expect(alices.json().entries[0].content).toBe('private thoughts');
  });

  it('needs a signed-in user (401) with a running trial or subscription (402)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/entries' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/stats' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/entries', payload: { content: 'x' } })).statusCode).toBe(401);
    const expired = await journalUser(t, { trialEnd: new Date(t.clock.now().getTime() - 1000) });
    for (const [method, url] of [
      ['GET', '/api/entries'],
      ['POST', '/api/entries'],
      ['GET', '/api/stats'],
      ['PATCH', '/api/entries/x'],
      ['DELETE', '/api/entries/x'],
      ['POST', '/api/entries/x/photos'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: expired.headers, payload: method === 'GET' || method === 'DELETE' ? undefined : { content: 'x' } });
      expect(res.statusCode, `${method} ${url}`).toBe(402);
      expect(res.json().error.code).toBe('ACCESS_REQUIRED');
    }
  });

  it('tells the user’s open pages about every change', async () => {
    const seen: unknown[] = [];
    const stop = t.app.ctx.events.subscribe(alice.id, (event) => seen.push(event));
    const entry = await createEntry(t, alice, { content: 'event' });
    await patch(alice, entry.id, { content: 'event 2' });
    await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}`, headers: alice.headers });
    stop();
    expect(seen).toEqual([
      { type: 'entries.changed', entryId: entry.id },
      { type: 'entries.changed', entryId: entry.id },
      { type: 'entries.changed', entryId: entry.id },
    ]);
  });

  it('keeps no entry text in the clear in any file it writes', async () => {
    const secret = 'Zanzibar-marmalade-secret';
    const entry = await createEntry(t, alice, { content: `Today: ${secret} in the text`, title: `${secret} title`, tags: `${secret}-tag` });
    await patch(alice, entry.id, { content: `Still ${secret}` });
    const row = await t.app.ctx.db.selectFrom('journal_entries').selectAll().where('id', '=', entry.id).executeTakeFirstOrThrow();
    for (const column of [row.content, row.title!, row.tags]) expect(column.startsWith('ENC:')).toBe(true);
    const needle = Buffer.from(secret);
    for (const file of filesUnder(t.dataDir)) expect(readFileSync(file).includes(needle), file).toBe(false);
  });
});
