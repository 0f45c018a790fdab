import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTextCipher, masterKeyId, SECRETS_SUBJECT } from '../crypto/encryption';
import { deriveKey } from '../crypto/tokens';
import { fixture, importFile } from '../test/import';
import { parseImportFile } from '../import/parse';
import { buildSmsTestApp, journalOf, textJournal, type SmsTestApp } from '../test/sms';
import { bearer, buildUser, signIn, type TestUser } from '../test/factories';
import { rotateMasterKey } from './rotate';
import { loadStoredHashKey, STORED_HASHES_SECRET } from './encrypted-secrets';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');
const [idA, idB] = [keyA, keyB].map((key) => masterKeyId(Buffer.from(key, 'base64')));
const linksKeyOfA = deriveKey(Buffer.from(keyA, 'base64'), 'links');
const NOON = new Date('2026-03-10T12:00:00Z');
const FILE = 'dayone-journal.json';

async function storedSecret(t: SmsTestApp): Promise<string> {
  const row = await t.ctx.db.selectFrom('sealed_secrets').select('value').where('name', '=', STORED_HASHES_SECRET).executeTakeFirstOrThrow();
  return row.value;
}

/** Imports the fixture as the user, through the given instance (each signs its own sessions). */
async function importAgain(t: SmsTestApp, user: TestUser) {
  return importFile(t, bearer(await signIn(t, user)), fixture(FILE));
}

describe('the key of hashes kept in the database (import fingerprints, UNDO)', () => {
  let a: SmsTestApp;
  const started: SmsTestApp[] = [];
  const instance = async (env: Record<string, string>) => {
    const t = await buildSmsTestApp({ sameDatabaseAs: a, env });
    t.clock.set(NOON);
    started.push(t);
    return t;
  };

  beforeAll(async () => {
    a = await buildSmsTestApp({ env: { MASTER_KEY: keyA } });
    a.clock.set(NOON);
  });
  afterAll(async () => {
    for (const t of started.reverse()) await t.close();
    await a?.close();
  });

  it('begins as the key such hashes were made with before it was stored, so those still match', async () => {
    // Encrypted under the master key, naming it; inside, MASTER_KEY's `links` key.
    const encrypted = await storedSecret(a);
    expect(a.ctx.cipher.keyIdOf(encrypted)).toBe(idA);
    expect(a.ctx.cipher.decryptStrict(SECRETS_SUBJECT.id, SECRETS_SUBJECT.salt, encrypted)).toBe(linksKeyOfA.toString('base64'));
    expect(a.ctx.keys.storedHashes.equals(linksKeyOfA)).toBe(true);

    // The fingerprints an import stores are made under a key derived from the `links` key of until now.
    const user = await buildUser(a, { timezone: 'UTC' });
    expect(await importAgain(a, user)).toMatchObject({ imported: 3, skipped: 0 });
    const stored = await a.ctx.db.selectFrom('journal_imports').select('fingerprint').where('user_id', '=', user.id).execute();
    const journalKey = createHmac('sha256', linksKeyOfA).update(`import-fingerprint-key:${user.id}`).digest();
    const madeBefore = parseImportFile(fixture(FILE), 'UTC').entries.map((e) => `k1:${createHmac('sha256', journalKey).update(e.origin).digest('base64url')}`);
    expect(stored.map((r) => r.fingerprint).sort()).toEqual([...madeBefore].sort());

    // A database from before the key was stored: the first start stores it, and the file still imports once.
    await a.ctx.db.deleteFrom('sealed_secrets').execute();
    const upgraded = await instance({ MASTER_KEY: keyA });
    expect(a.ctx.cipher.decryptStrict(SECRETS_SUBJECT.id, SECRETS_SUBJECT.salt, await storedSecret(upgraded))).toBe(linksKeyOfA.toString('base64'));
    expect(await importAgain(upgraded, user)).toMatchObject({ imported: 0, skipped: 3 });
  });

  it('stays the same through `jotline keys rotate`: a re-import adds nothing, UNDO takes back a text from before', async () => {
    const importer = await buildUser(a, { timezone: 'UTC' });
    expect(await importAgain(a, importer)).toMatchObject({ imported: 3 });
    const texter = await buildUser(a, { timezone: 'UTC' });
    await textJournal(a, texter.phone, 'Coffee with Sam.');
    await textJournal(a, texter.phone, 'Rain all afternoon.');
    expect((await journalOf(a, texter.id)).map((e) => e.content)).toEqual(['Coffee with Sam.\n\nRain all afternoon.']);

    // While the rotation runs, instances decrypt it with the old key.
    const rotating = await instance({ MASTER_KEY: keyB, MASTER_KEY_PREVIOUS: keyA });
    expect(rotating.ctx.keys.storedHashes.equals(linksKeyOfA)).toBe(true);

    // Stopped after the first user, then resumed: the secret is re-encrypted once and stays readable.
    const stop = new AbortController();
    const first = await rotateMasterKey(rotating.ctx, { batchSize: 1, signal: stop.signal, onProgress: () => stop.abort() });
    expect(first).toMatchObject({ finished: false, counts: { secrets: 1, unreadable: 0 } });
    expect(rotating.ctx.cipher.keyIdOf(await storedSecret(rotating))).toBe(idB);
    const second = await rotateMasterKey(rotating.ctx, { batchSize: 1 });
    expect(second).toMatchObject({ finished: true, counts: { secrets: 0, unreadable: 0 } });

    // With the new key alone: the same key, encrypted under it.
    const after = await instance({ MASTER_KEY: keyB });
    expect(after.ctx.keys.storedHashes.equals(linksKeyOfA)).toBe(true);
    expect(after.ctx.keys.links.equals(linksKeyOfA)).toBe(false);
    expect(createTextCipher(Buffer.from(keyB, 'base64')).decryptStrict(SECRETS_SUBJECT.id, SECRETS_SUBJECT.salt, await storedSecret(after))).toBe(linksKeyOfA.toString('base64'));

    expect(await importAgain(after, importer)).toMatchObject({ imported: 0, skipped: 3 });
    expect(await journalOf(after, importer.id)).toHaveLength(3);

    await textJournal(after, texter.phone, 'UNDO');
    expect((await journalOf(after, texter.id)).map((e) => e.content)).toEqual(['Coffee with Sam.']);

    expect(await rotateMasterKey(rotating.ctx)).toMatchObject({ alreadyFinished: true, counts: { secrets: 0 } });
  }, 120_000);

  it('is one key however many instances store it at once', async () => {
    const instances = [await instance({ MASTER_KEY: keyB }), await instance({ MASTER_KEY: keyB }), await instance({ MASTER_KEY: keyB })];
    await a.ctx.db.deleteFrom('sealed_secrets').execute();
    const keys = await Promise.all(
      instances.map((t) => loadStoredHashKey({ db: t.ctx.db, cipher: t.ctx.cipher, masterKey: Buffer.from(keyB, 'base64'), now: NOON.toISOString() })),
    );
    expect(keys.every((k) => k.decrypted && k.key.equals(keys[0]!.key))).toBe(true);
    expect(await a.ctx.db.selectFrom('sealed_secrets').select('name').execute()).toEqual([{ name: STORED_HASHES_SECRET }]);
  });

  it('is left as it is when the master key decrypts none of it (a key that is not this database’s)', async () => {
    const stranger = randomBytes(32);
    const before = await storedSecret(a);
    const loaded = await loadStoredHashKey({ db: a.ctx.db, cipher: createTextCipher(stranger), masterKey: stranger, now: NOON.toISOString() });
    expect(loaded.decrypted).toBe(false);
    expect(loaded.key.equals(deriveKey(stranger, 'links'))).toBe(true);
    expect(await storedSecret(a)).toBe(before);
  });
});
