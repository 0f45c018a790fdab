import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import type { OpenedEntryInput, SealedEntry } from '../../shared/vault';
import { VAULT_FILE_MAGIC } from '../../shared/vault';
import { vaultMessages } from '../../shared/vault-messages';
import { createEntry, journalUser, listEntries, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { browserKeys, openSealedEntry, sealJournal, turnOn, vaultRequest, type BrowserKeys } from '../test/vault';
import { storageCanRead } from '../test/vault-zero-access';

const errors = vaultMessages.errors;

describe('turning the vault off: the browser opens each sealed entry and the server keeps it under its own key again', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const media = async (url: string) => (await t.app.inject({ method: 'GET', url })).rawPayload;
  const sealedBatch = async (user: JournalTestUser): Promise<SealedEntry[]> => {
    const res = await vaultRequest(t, user, 'GET', '/api/vault/sealed');
    expect(res.statusCode).toBe(200);
    return res.json().entries;
  };
  const open = (keys: BrowserKeys, entry: SealedEntry) => openSealedEntry(t, keys, entry);
  const sendOpened = (user: JournalTestUser, entries: OpenedEntryInput[]) => vaultRequest(t, user, 'POST', '/api/vault/opened', { entries });

  const vaultUser = async (entries: number) => {
    const user = await journalUser(t);
    for (let i = 0; i < entries; i++) await createEntry(t, user, { content: `Entry ${i}`, title: i % 2 ? `Title ${i}` : null, tags: i % 3 ? 'one, two' : '' });
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    await sealJournal(t, user);
    return { user, keys };
  };

  it('opens a sealed journal with its photos back into the journal the server reads, then the vault is off', async () => {
    const user = await journalUser(t);
    const form = await multipart({ content: 'Pier at dusk', title: 'Evening', tags: 'sea' }, [
      { name: 'pier.jpg', bytes: await testImage('jpeg', { width: 70 }) },
      { name: 'gull.webp', bytes: await testImage('webp', { width: 60 }) },
    ]);
    const created = await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...user.headers, ...form.headers }, payload: form.payload });
    const withPhotos: JournalEntry = created.json();
    const pictures = await Promise.all(withPhotos.photos.flatMap((p) => [media(p.url), media(p.thumbnail_url)]));
    for (let i = 0; i < 60; i++) await createEntry(t, user, { content: `Plain ${i}`, tags: i % 2 ? 'odd' : '' });
    const journalBefore = (await listEntries(t, user, '?limit=100')).entries;
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    await sealJournal(t, user);

    expect((await vaultRequest(t, user, 'POST', '/api/vault/unseal')).json()).toMatchObject({ enabled: true, state: 'unsealing' });
    let batches = 0;
    for (let batch = await sealedBatch(user); batch.length > 0; batch = await sealedBatch(user)) {
      batches += 1;
      const res = await sendOpened(user, await Promise.all(batch.map((entry) => open(keys, entry))));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ opened: batch.map((e) => e.id), skipped: [] });
    }
    expect(batches).toBe(2);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toMatchObject({ state: 'unsealing', sealed_entries: 0, total_entries: 61 });
    expect((await vaultRequest(t, user, 'DELETE', '/api/vault')).statusCode).toBe(204);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toEqual({ enabled: false, state: 'off', public_key: null, wrapped_keys: null, sealed_entries: 0, total_entries: 61 });

    const journalAfter = (await listEntries(t, user, '?limit=100')).entries;
    const words = (list: JournalEntry[]) => list.map(({ id, content, title, tags, entry_date, source, created_at }) => ({ id, content, title, tags, entry_date, source, created_at }));
    expect(words(journalAfter)).toEqual(words(journalBefore));
    const photos = journalAfter.find((e) => e.id === withPhotos.id)!.photos;
    expect(photos.map((p) => [p.file_name, p.mime_type])).toEqual([['pier.jpg', 'image/jpeg'], ['gull.webp', 'image/webp']]);
    expect(await Promise.all(photos.flatMap((p) => [media(p.url), media(p.thumbnail_url)]))).toEqual(pictures);
    // The sealed files are gone: nothing starts with the vault's magic any more, and the pictures are readable once each.
    for (const p of photos) expect((await media(p.url)).subarray(0, 8).toString('latin1')).not.toBe(VAULT_FILE_MAGIC);
    expect(await storageCanRead(t.app.ctx, user.id, pictures[0]!)).toBe(true);
    expect(await t.app.ctx.db.selectFrom('vault_stale_files').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('turns off only once no entry is sealed, and only when turning off was started', async () => {
    const { user, keys } = await vaultUser(3);
    const early = await vaultRequest(t, user, 'DELETE', '/api/vault');
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(errors.notTurningOff);
    await vaultRequest(t, user, 'POST', '/api/vault/unseal');
    const [first] = await sealedBatch(user);
    await sendOpened(user, [await open(keys, first!)]);
    const res = await vaultRequest(t, user, 'DELETE', '/api/vault');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(errors.stillSealed(2));
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toMatchObject({ enabled: true, state: 'unsealing', sealed_entries: 2 });
  });

  it('skips an entry that got another segment since the browser opened it, and hands it out again', async () => {
    const { user, keys } = await vaultUser(1);
    await vaultRequest(t, user, 'POST', '/api/vault/unseal');
    const [entry] = await sealedBatch(user);
    const opened = await open(keys, entry!);
    const res = await sendOpened(user, [{ ...opened, segments: opened.segments + 1 }]);
    expect(res.json()).toEqual({ opened: [], skipped: [entry!.id] });
    expect((await sealedBatch(user)).map((e) => e.id)).toEqual([entry!.id]);
  });

  it('refuses an entry sent without all its photos, or with a photo that is no picture, and changes nothing', async () => {
    const user = await journalUser(t);
    const form = await multipart({ content: 'Two pictures' }, [
      { name: 'a.png', bytes: await testImage('png') },
      { name: 'b.png', bytes: await testImage('png') },
    ]);
    await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...user.headers, ...form.headers }, payload: form.payload });
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    await sealJournal(t, user);
    await vaultRequest(t, user, 'POST', '/api/vault/unseal');
    const [entry] = await sealedBatch(user);
    const opened = await open(keys, entry!);

    const missing = await sendOpened(user, [{ ...opened, photos: opened.photos.slice(0, 1) }]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe(errors.photosMismatch);
    const garbled = await sendOpened(user, [{ ...opened, photos: [opened.photos[0]!, { ...opened.photos[1]!, full: Buffer.from('not a picture').toString('base64') }] }]);
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json().error.message).toBe(errors.photoInvalid);
    expect((await sealedBatch(user)).map((e) => e.id)).toEqual([entry!.id]);
    // Still sealed, still opening to the same pictures.
    const again = await open(keys, (await sealedBatch(user))[0]!);
    expect(again.photos).toEqual(opened.photos);
  });

  it('hands out sealed entries only while turning off, and each user only their own', async () => {
    const alice = await vaultUser(1);
    const bob = await vaultUser(1);
    const refused = await vaultRequest(t, alice.user, 'GET', '/api/vault/sealed');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(errors.notTurningOff);

    await vaultRequest(t, alice.user, 'POST', '/api/vault/unseal');
    await vaultRequest(t, bob.user, 'POST', '/api/vault/unseal');
    const [aliceEntry] = await sealedBatch(alice.user);
    const opened = await open(alice.keys, aliceEntry!);
    // Bob cannot write into Alice's entry by its id.
    expect((await sendOpened(bob.user, [{ ...opened, content: 'Bob was here' }])).json()).toEqual({ opened: [], skipped: [aliceEntry!.id] });
    expect((await sealedBatch(alice.user)).map((e) => e.id)).toEqual([aliceEntry!.id]);
    expect((await sealedBatch(bob.user)).map((e) => e.id)).not.toContain(aliceEntry!.id);
  });

  it('seals again what turning off had opened when the user changes their mind', async () => {
    const { user, keys } = await vaultUser(2);
    await vaultRequest(t, user, 'POST', '/api/vault/unseal');
    const [first] = await sealedBatch(user);
    await sendOpened(user, [await open(keys, first!)]);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toMatchObject({ sealed_entries: 1, total_entries: 2 });
    const steps = await sealJournal(t, user);
    expect(steps.at(-1)).toMatchObject({ state: 'on', sealed_entries: 2 });
  });
});
