import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, type TestApp } from '../test/app';
import { createEntry, journalUser, listEntries, type JournalTestUser } from './test-helpers';

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
