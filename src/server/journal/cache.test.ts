import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, type TestApp } from '../test/app';
import { createEntry, journalUser, listEntries, type JournalTestUser } from '../test/journal';

// Many app instances share one database; each keeps decrypted journals in memory and must still
// see what the others write.
describe('the in-memory journal across app instances', () => {
  let t: TestApp;
  let second: FastifyInstance;
  let user: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    const config = t.app.ctx.config;
    second = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: t.dataDir,
        DATABASE_URL: config.databaseUrl,
        MASTER_KEY: config.masterKey!.toString('base64'),
        LOG_LEVEL: 'silent',
        JOBS: 'off',
      }),
      { clock: t.clock, serveWeb: false },
    );
    user = await journalUser(t);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  const onSecond = async (query = '') => {
    const res = await second.inject({ method: 'GET', url: `/api/entries${query}`, headers: user.headers });
    expect(res.statusCode).toBe(200);
    return (res.json().entries as { content: string }[]).map((e) => e.content);
  };

  it('sees entries created, edited and deleted by another instance', async () => {
    const entry = await createEntry(t, user, { content: 'first' });
    expect(await onSecond()).toEqual(['first']);
    await t.app.inject({ method: 'PATCH', url: `/api/entries/${entry.id}`, headers: user.headers, payload: { content: 'edited' } });
    expect(await onSecond('?q=edited')).toEqual(['edited']);
    t.clock.advance(1000);
    await createEntry(t, user, { content: 'second' });
    expect(await onSecond()).toEqual(['second', 'edited']);
    await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}`, headers: user.headers });
    expect(await onSecond()).toEqual(['second']);
  });

  it('and the first instance sees what the second writes', async () => {
    await listEntries(t, user);
    t.clock.advance(1000);
    const res = await second.inject({ method: 'POST', url: '/api/entries', headers: user.headers, payload: { content: 'from the second' } });
    expect(res.statusCode).toBe(201);
    expect((await listEntries(t, user)).entries.map((e) => e.content)).toEqual(['from the second', 'second']);
  });
});

describe('the in-memory journal within its memory budget', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SEARCH_CACHE_MB: '1' });
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
  });
  afterAll(() => t.close());

  // 225 kB of text, held twice (as written, and folded for search): two such journals fit in a
  // 1 MB budget, three do not.
  async function bigJournal(word: string) {
    const user = await journalUser(t);
    const line = `${word} walked along the river and thought about the week. `;
    for (let i = 0; i < 25; i++) {
      t.clock.advance(1000);
      await createEntry(t, user, { content: `${line.repeat(160)}`.slice(0, 9_000) });
    }
    return user;
  }

  it('lets the least recently used journals go, and reads them again when asked', async () => {
    const cache = t.app.ctx.journalCache;
    const users = [await bigJournal('alpha'), await bigJournal('bravo'), await bigJournal('charlie')];
    for (const user of users) await listEntries(t, user);
    expect(cache.sizeBytes).toBeGreaterThan(0);
    expect(cache.sizeBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(cache.journalCount).toBe(2);
    // The first journal was let go; asking again reads it back whole.
    const again = await t.app.inject({ method: 'GET', url: '/api/entries?q=alpha&limit=100', headers: users[0]!.headers });
    expect(again.json().entries).toHaveLength(25);
    expect(cache.journalCount).toBe(2);
    expect(cache.sizeBytes).toBeLessThanOrEqual(1024 * 1024);
  });

  it('finds an edited entry by its new words, not its old ones, and forgets a deleted one', async () => {
    const user = await journalUser(t);
    const search = async (q: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/entries?q=${encodeURIComponent(q)}`, headers: user.headers })).json().entries.map((e: { id: string }) => e.id);
    const kept = await createEntry(t, user, { content: 'A walk by the harbour.' });
    t.clock.advance(1000);
    const edited = await createEntry(t, user, { content: 'Café   with\nNora' });
    expect(await search('CAFE nora')).toEqual([edited.id]); // case and accents folded
    expect(await search('"café with nora"')).toEqual([edited.id]); // whitespace folded to one space
    await t.app.inject({ method: 'PATCH', url: `/api/entries/${edited.id}`, headers: user.headers, payload: { content: 'Tea at the harbour' } });
    expect(await search('café')).toEqual([]);
    expect(await search('harbour')).toEqual([edited.id, kept.id]);
    await t.app.inject({ method: 'DELETE', url: `/api/entries/${edited.id}`, headers: user.headers });
    expect(await search('harbour')).toEqual([kept.id]);
  });
});

describe('tags in the in-memory journal', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
  });
  afterAll(() => t.close());

  it("change for the edited entry only, and the tag filter follows", async () => {
    const user = await journalUser(t);
    const ids: string[] = [];
    for (const content of ['Weeded the beds.', 'Planted the leeks.', 'Watered everything.']) {
      t.clock.advance(1000);
      ids.push((await createEntry(t, user, { content, tags: ['Garden', 'Work'] })).id);
    }
    const edit = await t.app.inject({ method: 'PATCH', url: `/api/entries/${ids[1]}`, headers: user.headers, payload: { content: 'Planted the leeks.', tags: ['Home'] } });
    expect(edit.statusCode).toBe(200);
    const tagsOf = async (query = '') =>
      (await t.app.inject({ method: 'GET', url: `/api/entries${query}`, headers: user.headers })).json().entries.map((e: { content: string; tags: string[] }) => [e.content, e.tags]);
    expect(await tagsOf()).toEqual([
      ['Watered everything.', ['Garden', 'Work']],
      ['Planted the leeks.', ['Home']],
      ['Weeded the beds.', ['Garden', 'Work']],
    ]);
    expect((await tagsOf('?tags=work')).map(([content]: [string]) => content)).toEqual(['Watered everything.', 'Weeded the beds.']);
  });
});
