import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportProgress } from '../../shared/import';
// The one test that runs the browser's import code against the server: the promise spans both sides.
// eslint-disable-next-line no-restricted-imports -- a test across the boundary, not server code
import { readImportFile } from '../../web/features/vault/import/read-file';
// eslint-disable-next-line no-restricted-imports -- a test across the boundary, not server code
import { importIntoVault } from '../../web/features/vault/import/vault-import';
import type { ImportedFingerprints, SealedImportResult } from '../../shared/vault-import';
import { fixture, importFile } from '../test/import';
import { journalUser, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { SEALED_FINGERPRINT_PREFIX, VAULT_IMPORT_PREFIX } from './repo';
import { browserKeys, sealJournal, turnOn, vaultRequest, type BrowserKeys } from '../test/vault';

// The Import card says "Importing the same file again adds nothing": with the Vault on too, and
// across turning it on (issue 35). The browser's own import code runs here against the server.
const NOW = new Date('2026-05-10T12:00:00Z');
const ZONE = 'America/New_York';
const FILES = { jrnl: fixture('jrnl/default-timeformat.txt'), dayOne: fixture('dayone-journal.json') };

describe('importing the same file again adds nothing, across the Vault', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const countEntries = async (user: JournalTestUser) =>
    Number((await t.app.ctx.db.selectFrom('journal_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow()).n);

  /** Settings → Import with the Vault on: the file read and sealed by the browser's code, sent to the server. */
  async function importInBrowser(user: JournalTestUser, keys: BrowserKeys, bytes: Buffer): Promise<ImportProgress> {
    const json = async <T>(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<T> => {
      const res = await vaultRequest(t, user, method, url, payload);
      if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json() as T;
    };
    return importIntoVault(readImportFile(new Uint8Array(bytes), { timeZone: ZONE, now: NOW }), {
      keys: { publicKey: new Uint8Array(Buffer.from(keys.publicKey, 'base64')), privateKey: keys.privateKey },
      preparePhoto: () => Promise.reject(new Error('no photos in these files')),
      importedBefore: () => json<ImportedFingerprints>('GET', '/api/vault/imported'),
      sendEntries: (entries) => json<SealedImportResult>('POST', '/api/vault/imported', { entries }),
      sendPhotos: () => Promise.reject(new Error('no photos in these files')),
      sendRecording: () => Promise.reject(new Error('no recordings in these files')),
    });
  }

  async function vaultOn(user: JournalTestUser): Promise<BrowserKeys> {
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    await sealJournal(t, user);
    return keys;
  }

  const alreadyImported = (progress: ImportProgress) => progress.reasons.find((r) => r.reason === 'already_imported')?.count ?? 0;

  it('a file imported before the Vault was turned on, imported again after it, adds nothing', async () => {
    const user = await journalUser(t, { timezone: ZONE });
    const jrnl = await importFile(t, user.headers, FILES.jrnl, 'journal.txt');
    const dayOne = await importFile(t, user.headers, FILES.dayOne, 'Journal.json');
    expect([jrnl.imported, dayOne.imported]).toEqual([9, dayOne.total]);
    const before = await countEntries(user);
    const keys = await vaultOn(user);

    const again = await importInBrowser(user, keys, FILES.jrnl);
    expect(again).toMatchObject({ status: 'done', imported: 0, skipped: 9 });
    expect(alreadyImported(again)).toBe(9);
    expect((await importInBrowser(user, keys, FILES.dayOne)).imported).toBe(0);
    expect(await countEntries(user)).toBe(before);
  });

  it('keeps no fingerprint the server could test a guess against once the journal is sealed: only sealed ones, which the vault opens', async () => {
    const user = await journalUser(t, { timezone: ZONE });
    await importFile(t, user.headers, FILES.jrnl, 'journal.txt');
    const keys = await vaultOn(user);
    const rows = await t.app.ctx.db.selectFrom('journal_imports').select('fingerprint').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(9);
    expect(rows.every((r) => r.fingerprint.startsWith(SEALED_FINGERPRINT_PREFIX))).toBe(true);

    const served = (await vaultRequest(t, user, 'GET', '/api/vault/imported')).json() as ImportedFingerprints;
    expect(served.fingerprints).toEqual([]);
    expect(served.sealed).toHaveLength(9);
    // Each opens, with the vault's private key only, to the HMAC of an entry's origin under the journal's key.
    const key = Buffer.from(served.key, 'base64url');
    const origins = readImportFile(new Uint8Array(FILES.jrnl), { timeZone: ZONE, now: NOW }).entries.map((e) => createHmac('sha256', key).update(e.origin).digest('base64url'));
    expect(served.sealed.map((s) => keys.open(s)).sort()).toEqual([...origins].sort());
  });

  it('a file imported twice with the Vault on adds nothing the second time', async () => {
    const user = await journalUser(t, { timezone: ZONE });
    const keys = await vaultOn(user);
    expect((await importInBrowser(user, keys, FILES.jrnl)).imported).toBe(9);
    const again = await importInBrowser(user, keys, FILES.jrnl);
    expect(again).toMatchObject({ status: 'done', imported: 0, skipped: 9 });
    expect(await countEntries(user)).toBe(9);
    const rows = await t.app.ctx.db.selectFrom('journal_imports').select('fingerprint').where('user_id', '=', user.id).execute();
    expect(rows.every((r) => r.fingerprint.startsWith(VAULT_IMPORT_PREFIX))).toBe(true);
  });

  it('brings back an entry deleted since, as an import without the Vault does', async () => {
    const user = await journalUser(t, { timezone: ZONE });
    await importFile(t, user.headers, FILES.jrnl, 'journal.txt');
    const keys = await vaultOn(user);
    const { id } = await t.app.ctx.db.selectFrom('journal_entries').select('id').where('user_id', '=', user.id).orderBy('created_at').executeTakeFirstOrThrow();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/entries/${id}`, headers: user.headers })).statusCode).toBe(204);
    expect((await importInBrowser(user, keys, FILES.jrnl)).imported).toBe(1);
    expect(await countEntries(user)).toBe(9);
  });
});
