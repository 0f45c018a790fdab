import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SealedJournalEntry, ServedEntriesPage } from '../../shared/journal';
import type { VaultSegment } from '../../shared/vault';
import type { SealedImportEntry, SealedImportResult } from '../../shared/vault-import';
import { vaultMessages } from '../../shared/vault-messages';
import { createEntry, journalUser, listEntries, testImage, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { browserKeys, sealedPhotoForm, sealedWrite, sealJournal, turnOn, vaultRequest, type BrowserKeys } from '../test/vault';
import { databaseCanRead, serverDecryptsText, storageCanRead } from '../test/vault-zero-access';

const errors = vaultMessages.errors;
const importKey = () => randomBytes(32).toString('base64url');

describe('POST /api/vault/imported: an import read and sealed in the browser', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  async function vaultUser(): Promise<{ user: JournalTestUser; keys: BrowserKeys }> {
    const user = await journalUser(t);
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    await sealJournal(t, user);
    return { user, keys };
  }

  async function entryOf(keys: BrowserKeys, segment: VaultSegment, fields: Partial<SealedImportEntry> = {}): Promise<SealedImportEntry> {
    return {
      import_key: importKey(),
      entry_date: segment.at.slice(0, 10),
      created_at: segment.at,
      time_zone: 'Europe/Berlin',
      source: segment.source,
      word_count: segment.text.split(/\s+/).filter(Boolean).length,
      sealed: [await sealedWrite(keys, segment)],
      ...fields,
    };
  }

  const send = (user: JournalTestUser, entries: unknown) => vaultRequest(t, user, 'POST', '/api/vault/imported', { entries });
  const page = async (user: JournalTestUser) => (await listEntries(t, user)) as ServedEntriesPage;

  it('stores the sealed entries with their day, times, zone, source and word count, and cannot open them', async () => {
    const { user, keys } = await vaultUser();
    const dive: VaultSegment = { text: 'Kelp forest dive at Monterey', title: 'Dive', tags: ['sea'], at: '2019-06-01T07:15:00.000Z', source: 'web' };
    const walk: VaultSegment = { text: 'Quiet walk by the canal', at: '2019-06-02T18:00:00.000Z', source: 'sms' };
    const entries = [await entryOf(keys, dive, { updated_at: '2019-06-03T10:00:00.000Z' }), await entryOf(keys, walk)];
    const res = await send(user, entries);
    expect(res.statusCode).toBe(200);
    const body = res.json() as SealedImportResult;
    expect(body.entries.map((e) => e.imported)).toEqual([true, true]);

    const listed = (await page(user)).entries as SealedJournalEntry[];
    const byId = new Map(listed.map((e) => [e.id, e]));
    const first = byId.get(body.entries[0]!.id)!;
    expect(first).toMatchObject({ content: null, title: null, tags: [], entry_date: '2019-06-01', source: 'web', word_count: 5, created_at: dive.at, updated_at: '2019-06-03T10:00:00.000Z' });
    expect(first.sealed).toEqual(entries[0]!.sealed);
    expect(keys.openSegment(first.sealed[0]!)).toEqual(dive);
    expect(byId.get(body.entries[1]!.id)).toMatchObject({ source: 'sms', entry_date: '2019-06-02', updated_at: walk.at });

    // Nowhere the server keeps things, with every key it has, do the words appear.
    expect(await databaseCanRead(t.app.ctx, user.id, 'Kelp')).toBe(false);
    expect(await databaseCanRead(t.app.ctx, user.id, 'canal')).toBe(false);
    expect(await serverDecryptsText(t.app.ctx, user.id, first.sealed[0]!)).toBe(false);
  });

  it('skips an entry imported before (the same key), and one sent twice in a batch, answering the entry it already is', async () => {
    const { user, keys } = await vaultUser();
    const entry = await entryOf(keys, { text: 'Once only', at: '2020-01-01T12:00:00.000Z', source: 'web' });
    const first = (await send(user, [entry])).json() as SealedImportResult;
    const again = await send(user, [entry, await entryOf(keys, { text: 'New', at: '2020-01-02T12:00:00.000Z', source: 'web' })]);
    expect(again.statusCode).toBe(200);
    const { entries } = again.json() as SealedImportResult;
    expect(entries[0]).toEqual({ id: first.entries[0]!.id, imported: false, has_photos: false, recording_keys: [] });
    expect(entries[1]!.imported).toBe(true);
    const twice = await entryOf(keys, { text: 'Twice', at: '2020-01-03T12:00:00.000Z', source: 'web' });
    const both = (await send(user, [twice, twice])).json() as SealedImportResult;
    expect(both.entries[1]).toEqual({ id: both.entries[0]!.id, imported: false, has_photos: false, recording_keys: [] });
    expect((await page(user)).entries).toHaveLength(3);
  });

  it('skips an entry of our own export whose id the journal still has, whatever its key', async () => {
    const { user, keys } = await vaultUser();
    const first = (await send(user, [await entryOf(keys, { text: 'Exported', at: '2020-02-02T12:00:00.000Z', source: 'web' })])).json() as SealedImportResult;
    const id = first.entries[0]!.id;
    const back = (await send(user, [await entryOf(keys, { text: 'Exported', at: '2020-02-02T12:00:00.000Z', source: 'web' }, { original_id: id })])).json() as SealedImportResult;
    expect(back.entries[0]).toEqual({ id, imported: false, has_photos: false, recording_keys: [] });
    expect((await page(user)).entries).toHaveLength(1);
  });

  it('keeps the import keys when the vault finishes a seal step again, so a later import still skips them', async () => {
    const { user, keys } = await vaultUser();
    const entry = await entryOf(keys, { text: 'Kept key', at: '2021-05-05T05:05:00.000Z', source: 'web' });
    await send(user, [entry]);
    await sealJournal(t, user);
    expect(((await send(user, [entry])).json() as SealedImportResult).entries[0]!.imported).toBe(false);
  });

  it('keeps one SMS entry a day, as the server import does: a second for a day that has one comes in from the web', async () => {
    const { user, keys } = await vaultUser();
    await send(user, [await entryOf(keys, { text: 'Text one', at: '2022-02-02T08:00:00.000Z', source: 'sms' })]);
    const later = (await send(user, [await entryOf(keys, { text: 'Text two', at: '2022-02-02T09:00:00.000Z', source: 'sms' })])).json() as SealedImportResult;
    const listed = (await page(user)).entries;
    expect(listed.find((e) => e.id === later.entries[0]!.id)?.source).toBe('web');
  });

  it('takes sealed photos for an imported entry through the sealed photo upload', async () => {
    const { user, keys } = await vaultUser();
    const imported = await entryOf(keys, { text: 'With a photo', at: '2023-03-03T03:03:00.000Z', source: 'web' });
    const { entries } = (await send(user, [imported])).json() as SealedImportResult;
    const full = await testImage('jpeg', { width: 64 });
    const form = await sealedPhotoForm(keys, {}, [{ name: 'harbour.jpg', bytes: full, thumb: await testImage('webp', { width: 20 }), type: 'image/jpeg' }]);
    const res = await t.app.inject({ method: 'POST', url: `/api/entries/${entries[0]!.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(201);
    expect(await storageCanRead(t.app.ctx, user.id, full)).toBe(false);
    expect(await databaseCanRead(t.app.ctx, user.id, 'harbour')).toBe(false);
    // Imported again, the entry answers that it has its photos: the browser sends them only to one without.
    const again = (await send(user, [imported])).json() as SealedImportResult;
    expect(again.entries).toEqual([{ id: entries[0]!.id, imported: false, has_photos: true, recording_keys: [] }]);
  });

  it('refuses when the vault is off or being turned off (409), and writes nothing', async () => {
    const plain = await journalUser(t);
    const keys = await browserKeys();
    const entry = await entryOf(keys, { text: 'No vault', at: '2024-04-04T04:00:00.000Z', source: 'web' });
    const off = await send(plain, [entry]);
    expect(off.statusCode).toBe(409);
    expect(off.json().error.message).toBe(errors.off);

    const { user } = await vaultUser();
    expect((await vaultRequest(t, user, 'POST', '/api/vault/unseal')).statusCode).toBe(200);
    const turningOff = await send(user, [entry]);
    expect(turningOff.statusCode).toBe(409);
    expect(turningOff.json().error.message).toBe(errors.turningOff);
    expect((await page(plain)).entries).toHaveLength(0);
    expect((await page(user)).entries).toHaveLength(0);
  });

  it('refuses bodies that are not a batch of sealed entries (400)', async () => {
    const { user, keys } = await vaultUser();
    const good = await entryOf(keys, { text: 'Fine', at: '2025-01-01T10:00:00.000Z', source: 'web' });
    const bad: unknown[] = [
      [],
      Array.from({ length: 51 }, () => good),
      [{ ...good, sealed: [] }],
      [{ ...good, sealed: ['not base64!'] }],
      [{ ...good, import_key: 'short' }],
      [{ ...good, entry_date: '2025-02-30' }],
      [{ ...good, created_at: 'yesterday' }],
      [{ ...good, time_zone: 'Mars/Olympus' }],
      [{ ...good, source: 'email' }],
      [{ ...good, word_count: -1 }],
      [{ ...good, content: 'plain words' }].map(({ sealed: _sealed, ...rest }) => rest),
    ];
    for (const entries of bad) expect((await send(user, entries)).statusCode, JSON.stringify(entries).slice(0, 80)).toBe(400);
    expect((await vaultRequest(t, user, 'POST', '/api/vault/imported', {})).statusCode).toBe(400);
    expect((await page(user)).entries).toHaveLength(0);
  });

  it("is scoped to the caller: an entry goes into their journal only, and another's key is not theirs", async () => {
    const alice = await vaultUser();
    const bob = await vaultUser();
    await createEntry(t, await journalUser(t), { content: 'someone else entirely' });
    const entry = await entryOf(alice.keys, { text: 'Alice imports', at: '2025-06-06T06:00:00.000Z', source: 'web' });
    expect(((await send(alice.user, [entry])).json() as SealedImportResult).entries[0]!.imported).toBe(true);
    // The same key from bob is bob's own first import, not alice's entry.
    const fromBob = (await send(bob.user, [entry])).json() as SealedImportResult;
    expect(fromBob.entries[0]!.imported).toBe(true);
    expect((await page(alice.user)).entries.map((e) => e.id)).not.toContain(fromBob.entries[0]!.id);
    expect((await page(bob.user)).entries).toHaveLength(1);
    expect((await page(alice.user)).entries).toHaveLength(1);
  });
});
