import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { createEntry, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildSmsTestApp, type SmsTestApp } from '../test/sms';
import { bearer, buildUser, signIn } from '../test/factories';
import { sealVaults } from './seal-journal';
import { browserKeys, sealedWrite, turnOn, vaultRequest } from '../test/vault';
import { databaseCanRead, storageCanRead } from '../test/vault-zero-access';

// Turning the vault on seals the journal in the server: no tab has to stay open, a killed instance's
// work goes on at the next pass, and the readable photo files a sealed entry replaced go at once.

describe('the vault seals the journal in the server', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  async function user(): Promise<JournalTestUser> {
    const account = await buildUser(t, { timezone: 'UTC' });
    const token = await signIn(t, account);
    return { id: account.id, token, headers: bearer(token) };
  }
  const entryWithPhoto = async (owner: JournalTestUser, content: string) => {
    const form = await multipart({ content }, [{ name: 'lake.jpg', bytes: await testImage('jpeg', { width: 80 }) }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...owner.headers, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(201);
    return res.json() as JournalEntry;
  };
  const media = async (url: string) => (await t.app.inject({ method: 'GET', url })).rawPayload;
  const readable = (userId: string) =>
    t.ctx.db.selectFrom('journal_entries').select('id').where('user_id', '=', userId).where('sealed', 'is', null).execute();

  it('finishes sealing after the tab that started it closed, on another instance after this one was killed', async () => {
    const owner = await user();
    for (let i = 0; i < 70; i++) await createEntry(t, owner, { content: `Walked to Xanadu bakery, day ${i}` });
    await turnOn(t, owner, await browserKeys());
    // One step from the tab, which then closes; this instance dies with the rest undone.
    expect((await vaultRequest(t, owner, 'POST', '/api/vault/seal')).json()).toMatchObject({ state: 'sealing', sealed_entries: 50 });
    expect(await readable(owner.id)).toHaveLength(20);

    const other = await buildSmsTestApp({ sameDatabaseAs: t });
    try {
      await sealVaults(other.ctx);
    } finally {
      await other.close();
    }
    expect(await readable(owner.id)).toEqual([]);
    expect((await vaultRequest(t, owner, 'GET', '/api/vault')).json()).toMatchObject({ state: 'on', sealed_entries: 70, total_entries: 70 });
    expect(await databaseCanRead(t.ctx, owner.id, 'Xanadu')).toBe(false);
  });

  it('deletes the readable photo files at once when an entry is sealed out of turn (an edit in the browser)', async () => {
    const owner = await user();
    const entry = await entryWithPhoto(owner, 'Jetty at dusk');
    const picture = await media(entry.photos[0]!.url);
    const keys = await browserKeys();
    await turnOn(t, owner, keys);
    // Edited in the browser before the sealing reached it: the server seals it now, photos included.
    const sealed = [await sealedWrite(keys, { text: 'Jetty at dusk, edited', at: entry.created_at, source: 'web' })];
    const res = await t.app.inject({ method: 'PATCH', url: `/api/entries/${entry.id}`, headers: owner.headers, payload: { sealed, word_count: 4 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await storageCanRead(t.ctx, owner.id, picture)).toBe(false);
    expect(await t.ctx.db.selectFrom('vault_stale_files').select('storage_key').where('user_id', '=', owner.id).execute()).toEqual([]);
  });

  it('sweeps replaced files a crash left listed', async () => {
    const owner = await user();
    const entry = await entryWithPhoto(owner, 'Harbour');
    const [photo] = await t.ctx.db.selectFrom('journal_photos').selectAll().where('entry_id', '=', entry.id).execute();
    await t.ctx.db.insertInto('vault_stale_files').values({ user_id: owner.id, storage_key: photo!.file_path, created_at: t.clock.now().toISOString() }).execute();
    await sealVaults(t.ctx);
    expect(await t.ctx.storage.get(photo!.file_path)).toBeNull();
    expect(await t.ctx.db.selectFrom('vault_stale_files').select('storage_key').where('user_id', '=', owner.id).execute()).toEqual([]);
  });
});
