import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { vaultMessages } from '../../shared/vault-messages';
import { createEntry, journalUser, listEntries, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildSmsTestApp, textJournal, type SmsTestApp } from '../test/sms';
import { buildUser, bearer, signIn } from '../test/factories';
import { newId } from '../ids';
import { encryptEntryText } from '../journal/entry-cipher';
import { ownerSalt } from '../journal/owner';
import { bumpRevision } from '../journal/repo';
import { loadSodium } from '../crypto/sodium';
import { browserKeys, sealJournal, turnOn, vaultRequest, type BrowserKeys } from '../test/vault';
import { databaseCanRead, storageCanRead } from '../test/vault-zero-access';

describe('turning the vault on seals the journal already written', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  const entryWithPhotos = async (user: JournalTestUser, content: string) => {
    const form = await multipart({ content, title: 'Lake day', tags: 'summer, swim' }, [
      { name: 'lake.jpg', bytes: await testImage('jpeg', { width: 80 }) },
      { name: 'dock.png', bytes: await testImage('png', { width: 90 }) },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...user.headers, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(201);
    return res.json() as JournalEntry;
  };
  const media = async (url: string) => (await t.app.inject({ method: 'GET', url })).rawPayload;
  const entryRows = (userId: string) => t.ctx.db.selectFrom('journal_entries').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  it('seals every entry, title, tag and photo, batch by batch, and nothing the server holds opens them', async () => {
    const account = await buildUser(t, { timezone: 'UTC' });
    const user: JournalTestUser = { id: account.id, token: await signIn(t, account), headers: bearer(await signIn(t, account)) };
    await textJournal(t, account.phone, 'Zanzibar lighthouse by text');
    const withPhotos = await entryWithPhotos(user, 'Quokka swim at the lake');
    const originals = await Promise.all(withPhotos.photos.flatMap((p) => [media(p.url), media(p.thumbnail_url)]));
    for (let i = 0; i < 60; i++) await createEntry(t, user, { content: `Ordinary day ${i}` });
    const before = await entryRows(user.id);
    expect(before).toHaveLength(62);

    const keys = await browserKeys();
    expect(await turnOn(t, user, keys)).toMatchObject({ state: 'sealing', sealed_entries: 0, total_entries: 62 });
    const steps = await sealJournal(t, user);
    // Fifty entries a step (fewer with photos), then the step that finds none left and turns it on.
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.at(-2)).toMatchObject({ state: 'sealing', sealed_entries: 62, total_entries: 62 });
    expect(steps.at(-1)).toMatchObject({ state: 'on', enabled: true, sealed_entries: 62, total_entries: 62 });
    expect(steps.map((s) => s.sealed_entries)).toEqual([...steps.map((s) => s.sealed_entries)].sort((a, b) => a - b));

    const after = await entryRows(user.id);
    for (const row of after) {
      expect(row).toMatchObject({ content: '', title: null, tags: '[]' });
      const original = before.find((b) => b.id === row.id)!;
      // What the server may still know: the day, the source, times and the word count.
      expect(row).toMatchObject({ entry_date: original.entry_date, source: original.source, created_at: original.created_at, updated_at: original.updated_at, word_count: original.word_count });
    }
    const segmentOf = (id: string) => {
      const sealed = JSON.parse(after.find((r) => r.id === id)!.sealed!) as string[];
      expect(sealed).toHaveLength(1);
      return keys.openSegment(sealed[0]!);
    };
    expect(segmentOf(withPhotos.id)).toEqual({ text: 'Quokka swim at the lake', title: 'Lake day', tags: ['summer', 'swim'], at: withPhotos.created_at, source: 'web' });
    const texted = before.find((r) => r.source === 'sms')!;
    expect(segmentOf(texted.id)).toEqual({ text: 'Zanzibar lighthouse by text', at: texted.created_at, source: 'sms' });

    // Photos: new files, each the magic and a sealed box that opens to the very bytes; names sealed too.
    const photoRows = await t.ctx.db.selectFrom('journal_photos').selectAll().where('entry_id', '=', withPhotos.id).orderBy('position').execute();
    const stored = await Promise.all(photoRows.flatMap((p) => [p.file_path, p.thumb_path]).map(async (key) => {
      const object = await t.ctx.storage.get(key);
      const chunks: Buffer[] = [];
      for await (const chunk of object!.stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    }));
    expect(stored.map((bytes) => keys.openFile(bytes))).toEqual(originals);
    expect(photoRows.map((p) => keys.open(p.file_name))).toEqual(['lake.jpg', 'dock.png']);

    // Zero access: no row, in any table, and no file holds the words or the pictures in a form the server can open.
    for (const word of ['Zanzibar', 'Quokka', 'Lake day', 'swim', 'Ordinary day', 'lake.jpg']) expect(await databaseCanRead(t.ctx, user.id, word)).toBe(false);
    for (const picture of originals) expect(await storageCanRead(t.ctx, user.id, picture)).toBe(false);
    // Nor does the server's memory: the journal it serves now holds no words.
    expect((await listEntries(t, user)).entries.every((e) => e.content === null && e.title === null && e.tags.length === 0 && 'sealed' in e)).toBe(true);
  });

  it('a sealed segment opens with the private key and with nothing the server holds', async () => {
    const user = await journalUser(t);
    await createEntry(t, user, { content: 'Only mine to read' });
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    await sealJournal(t, user);
    const [row] = await entryRows(user.id);
    const sealed = Buffer.from((JSON.parse(row!.sealed!) as string[])[0]!, 'base64');
    expect(keys.openSegment(sealed.toString('base64')).text).toBe('Only mine to read');

    const sodium = await loadSodium();
    const ctx = t.ctx;
    const vault = (await vaultRequest(t, user, 'GET', '/api/vault')).json();
    // Every secret the server has, tried as the X25519 private key.
    const serverSecrets = [ctx.config.masterKey!, ctx.keys.accessToken, ctx.keys.links, ctx.keys.storedHashes, Buffer.from(vault.public_key, 'base64')];
    for (const secret of serverSecrets) {
      const privateKey = Uint8Array.from(secret).subarray(0, 32);
      const publicKey = sodium.crypto_scalarmult_base(privateKey);
      expect(() => sodium.crypto_box_seal_open(sealed, publicKey, privateKey)).toThrow();
      expect(() => sodium.crypto_box_seal_open(sealed, Buffer.from(vault.public_key, 'base64'), privateKey)).toThrow();
    }
    // The server's own cipher (MASTER_KEY) gives it back unopened.
    expect(ctx.cipher.decrypt(user.id, 'any-salt', sealed.toString('base64'))).toBe(sealed.toString('base64'));
    // Another vault's private key does not open it either.
    const other: BrowserKeys = await browserKeys();
    expect(() => other.openSegment(sealed.toString('base64'))).toThrow();
  });

  it('resumes where it stopped: a closed tab leaves the vault sealing, and a text arriving meanwhile is sealed as it is processed', async () => {
    const account = await buildUser(t, { timezone: 'UTC' });
    const user: JournalTestUser = { id: account.id, token: '', headers: bearer(await signIn(t, account)) };
    for (let i = 0; i < 55; i++) await createEntry(t, user, { content: `Before ${i}` });
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    const first = (await vaultRequest(t, user, 'POST', '/api/vault/seal')).json();
    expect(first).toMatchObject({ state: 'sealing', sealed_entries: 50, total_entries: 55 });
    // The tab closes; later, the page asks where it stands.
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toMatchObject({ state: 'sealing', sealed_entries: 50 });
    // A web write in the clear is refused now (the browser seals); a text is sealed as it is processed.
    const plain = await t.app.inject({ method: 'POST', url: '/api/entries', headers: user.headers, payload: { content: 'Typed while sealing' } });
    expect(plain.statusCode).toBe(409);
    expect(plain.json().error.message).toBe(vaultMessages.errors.sealedOnly);
    await textJournal(t, account.phone, 'Written while sealing');
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toMatchObject({ state: 'sealing', sealed_entries: 51, total_entries: 56 });
    const steps = await sealJournal(t, user);
    expect(steps.at(-1)).toMatchObject({ state: 'on', sealed_entries: 56, total_entries: 56 });
    const rows = await entryRows(user.id);
    expect(rows.every((r) => r.sealed !== null && r.content === '')).toBe(true);
    expect(rows.map((r) => keys.openSegment((JSON.parse(r.sealed!) as string[])[0]!).text)).toContain('Written while sealing');
    // Sealing once more does nothing.
    expect((await vaultRequest(t, user, 'POST', '/api/vault/seal')).json()).toMatchObject({ state: 'on', sealed_entries: 56 });
  });

  it('once on, seals an entry that reached the journal readable all the same', async () => {
    const user = await journalUser(t);
    await createEntry(t, user, { content: 'First' });
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    await sealJournal(t, user);
    // Processing and writing seal as they go; a readable entry could only come from a writer that
    // raced the vault being turned on, as this one did.
    const salt = await ownerSalt(t.ctx, user.id);
    await t.ctx.db
      .insertInto('journal_entries')
      .values({ id: newId(), user_id: user.id, ...encryptEntryText(t.ctx, user.id, salt, { content: 'Straggler', title: null, tags: [] }), source: 'web', entry_date: '2026-11-25', word_count: 1, created_at: new Date().toISOString(), updated_at: new Date().toISOString() })
      .execute();
    await bumpRevision(t.ctx.db, user.id);
    expect((await vaultRequest(t, user, 'GET', '/api/vault')).json()).toMatchObject({ state: 'on', sealed_entries: 1, total_entries: 2 });
    expect((await vaultRequest(t, user, 'POST', '/api/vault/seal')).json()).toMatchObject({ state: 'on', sealed_entries: 2, total_entries: 2 });
    expect(await databaseCanRead(t.ctx, user.id, 'Straggler')).toBe(false);
  });

  it('deletes the replaced photo files a crash left behind at the next step', async () => {
    const user = await journalUser(t);
    await entryWithPhotos(user, 'Pictures');
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    // As if the server stopped after committing a step but before deleting the old files.
    const leftover = `${user.id}/old/${Date.now()}-0000000000000000.jpg`;
    await t.ctx.storage.put(leftover, await testImage('jpeg'), 'image/jpeg');
    await t.ctx.db.insertInto('vault_stale_files').values({ storage_key: leftover, user_id: user.id, created_at: new Date().toISOString() }).execute();
    await sealJournal(t, user);
    expect(await t.ctx.storage.get(leftover)).toBeNull();
    expect(await t.ctx.db.selectFrom('vault_stale_files').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('deleting the account deletes the replaced photo files still listed, with everything else', async () => {
    const user = await journalUser(t);
    await entryWithPhotos(user, 'Pictures');
    await turnOn(t, user, await browserKeys());
    const leftover = `${user.id}/old/${Date.now()}-1111111111111111.jpg`;
    await t.ctx.storage.put(leftover, await testImage('jpeg'), 'image/jpeg');
    await t.ctx.db.insertInto('vault_stale_files').values({ storage_key: leftover, user_id: user.id, created_at: new Date().toISOString() }).execute();
    const res = await t.app.inject({ method: 'DELETE', url: '/api/auth/user', headers: user.headers, payload: { confirmationText: 'DELETE' } });
    expect(res.statusCode).toBe(200);
    expect(await t.ctx.storage.get(leftover)).toBeNull();
    expect(await t.ctx.db.selectFrom('vault_stale_files').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('vaults').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('answers 404 when there is no vault to seal into', async () => {
    const user = await journalUser(t);
    const res = await vaultRequest(t, user, 'POST', '/api/vault/seal');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(vaultMessages.errors.off);
  });
});
