import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SealedJournalEntry, ServedEntriesPage } from '../../shared/journal';
import { vaultMessages } from '../../shared/vault-messages';
import { createEntry, journalUser, listEntries, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { browserKeys, sealedPhotoForm, sealedWrite, sealJournal, turnOn, type BrowserKeys } from '../test/vault';
import { databaseCanRead, storageCanRead } from '../test/vault-zero-access';

const errors = vaultMessages.errors;

describe('the journal of a Vault user: read sealed, written sealed in the browser', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const inject = (user: JournalTestUser, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload && { payload }) });
  const page = async (user: JournalTestUser, query = ''): Promise<ServedEntriesPage> => (await listEntries(t, user, query)) as ServedEntriesPage;
  const media = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    return { type: res.headers['content-type'], bytes: res.rawPayload };
  };

  async function vaultUser(): Promise<{ user: JournalTestUser; keys: BrowserKeys }> {
    const user = await journalUser(t);
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    await sealJournal(t, user);
    return { user, keys };
  }

  it('lists sealed entries with no words, their segments, and says the journal has a Vault; others see no such field', async () => {
    const { user, keys } = await vaultUser();
    const sealed = await sealedWrite(keys, { text: 'Kelp forest dive', title: 'Dive', tags: ['sea'], at: '2026-11-25T08:00:00.000Z', source: 'web' });
    const created = await inject(user, 'POST', '/api/entries', { entry_date: '2026-11-24', sealed: [sealed], word_count: 3 });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ content: null, title: null, tags: [], sealed: [sealed], entry_date: '2026-11-24', source: 'web', word_count: 3 });

    const listed = await page(user);
    expect(listed.vault).toBe(true);
    const [entry] = listed.entries as SealedJournalEntry[];
    expect(entry).toMatchObject({ id: created.json().id, content: null, title: null, tags: [], sealed: [sealed] });
    expect(keys.openSegment(entry!.sealed[0]!)).toEqual({ text: 'Kelp forest dive', title: 'Dive', tags: ['sea'], at: '2026-11-25T08:00:00.000Z', source: 'web' });
    // The server cannot search what it cannot read: the browser does.
    expect((await page(user, '?q=kelp')).entries).toEqual([]);
    expect(await databaseCanRead(t.app.ctx, user.id, 'Kelp')).toBe(false);

    const other = await journalUser(t);
    await createEntry(t, other, { content: 'Plain day' });
    const plain = await page(other);
    expect('vault' in plain).toBe(false);
    expect(plain.entries[0]).not.toHaveProperty('sealed');
  });

  it('keeps photos sealed in the browser as they came, names them sealed, and serves them sealed', async () => {
    const { user, keys } = await vaultUser();
    const full = await testImage('jpeg', { width: 90 });
    const thumb = await testImage('webp', { width: 30 });
    const form = await sealedPhotoForm(keys, { sealed: await sealedWrite(keys, { text: '', at: '2026-11-25T08:00:00.000Z', source: 'web' }), word_count: '0' }, [
      { name: 'reef.jpg', bytes: full, thumb, type: 'image/jpeg' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...user.headers, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(201);
    const [photo] = (res.json() as SealedJournalEntry).photos;
    expect(photo).toMatchObject({ mime_type: 'image/jpeg', file_size: full.length });
    expect(keys.open(photo!.file_name)).toBe('reef.jpg');
    const served = await media(photo!.url);
    expect(served.type).toBe('application/octet-stream');
    expect(keys.openFile(served.bytes)).toEqual(full);
    expect(keys.openFile((await media(photo!.thumbnail_url)).bytes)).toEqual(thumb);
    expect(await storageCanRead(t.app.ctx, user.id, full)).toBe(false);

    // More photos to the same entry, sealed too.
    const more = await sealedPhotoForm(keys, {}, [{ name: 'kelp.png', bytes: await testImage('png'), thumb, type: 'image/png' }]);
    const added = await t.app.inject({ method: 'POST', url: `/api/entries/${res.json().id}/photos`, headers: { ...user.headers, ...more.headers }, payload: more.payload });
    expect(added.statusCode).toBe(201);
    expect((added.json() as SealedJournalEntry).photos.map((p) => keys.open(p.file_name))).toEqual(['reef.jpg', 'kelp.png']);
  });

  it('refuses words and photos in the clear for a sealed journal, and photos that are not sealed whole', async () => {
    const { user, keys } = await vaultUser();
    const plain = await inject(user, 'POST', '/api/entries', { content: 'Typed on an old page' });
    expect(plain.statusCode).toBe(409);
    expect(plain.json().error.message).toBe(errors.sealedOnly);
    const sealed = await inject(user, 'POST', '/api/entries', { sealed: [await sealedWrite(keys, { text: 'Mine', at: '2026-11-25T08:00:00.000Z', source: 'web' })] });
    const id = sealed.json().id as string;
    expect((await inject(user, 'PATCH', `/api/entries/${id}`, { content: 'Overwritten in the clear' })).statusCode).toBe(409);
    const both = await inject(user, 'POST', '/api/entries', { content: 'Both', sealed: [sealed.json().sealed[0]] });
    expect(both.statusCode).toBe(400);
    expect(both.json().error.message).toBe(errors.sealedAndPlain);

    const picture = await multipart({}, [{ name: 'plain.jpg', bytes: await testImage('jpeg') }]);
    const plainPhoto = await t.app.inject({ method: 'POST', url: `/api/entries/${id}/photos`, headers: { ...user.headers, ...picture.headers }, payload: picture.payload });
    expect(plainPhoto.statusCode).toBe(409);
    expect(plainPhoto.json().error.message).toBe(errors.sealedPhotosOnly);
    // A photo whose bytes are not a sealed file, or that comes without its thumbnail, is refused.
    const form = await sealedPhotoForm(keys, {}, [{ name: 'x.jpg', bytes: await testImage('jpeg'), thumb: await testImage('webp'), type: 'image/jpeg' }]);
    const unsealed = await multipart({ photo_names: keys.publicKey, photo_types: 'image/jpeg' }, [{ name: 'x.jpg', bytes: await testImage('jpeg') }]);
    for (const body of [unsealed]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/entries/${id}/photos`, headers: { ...user.headers, ...body.headers }, payload: body.payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(errors.sealedPhotoInvalid);
    }
    expect((await t.app.inject({ method: 'POST', url: `/api/entries/${id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload })).statusCode).toBe(201);
    expect((await inject(user, 'POST', '/api/entries', { sealed: ['not base64!'] })).statusCode).toBe(400);
  });

  it('refuses a sealed write from someone without a Vault (nothing to seal to)', async () => {
    const user = await journalUser(t);
    const keys = await browserKeys();
    const res = await inject(user, 'POST', '/api/entries', { sealed: [await sealedWrite(keys, { text: 'x', at: '2026-11-25T08:00:00.000Z', source: 'web' })] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(errors.off);
  });

  it('replaces an entry’s segments with an edit sealed in the browser, keeping its photos and day', async () => {
    const { user, keys } = await vaultUser();
    const created = await inject(user, 'POST', '/api/entries', { entry_date: '2026-11-20', sealed: [await sealedWrite(keys, { text: 'First draft', at: '2026-11-25T08:00:00.000Z', source: 'web' })], word_count: 2 });
    const edit = await sealedWrite(keys, { text: 'Second draft, longer', title: 'Draft', tags: ['writing'], at: '2026-11-25T09:00:00.000Z', source: 'web' });
    const res = await inject(user, 'PATCH', `/api/entries/${created.json().id}`, { sealed: [edit], word_count: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sealed: [edit], word_count: 3, entry_date: '2026-11-20', content: null });
  });

  it('seals a readable entry of a journal still being sealed before an edit sealed in the browser replaces it', async () => {
    const user = await journalUser(t);
    const form = await multipart({ content: 'Readable still' }, [{ name: 'a.jpg', bytes: await testImage('jpeg') }]);
    const before = (await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...user.headers, ...form.headers }, payload: form.payload })).json();
    const keys = await browserKeys();
    await turnOn(t, user, keys);
    const edit = await sealedWrite(keys, { text: 'Edited in the vault', at: '2026-11-25T09:00:00.000Z', source: 'web' });
    const res = await inject(user, 'PATCH', `/api/entries/${before.id}`, { sealed: [edit], word_count: 4 });
    expect(res.statusCode).toBe(200);
    const entry = res.json() as SealedJournalEntry;
    expect(entry.sealed).toEqual([edit]);
    // Its photo was sealed with it: an entry is never part sealed.
    expect(keys.open(entry.photos[0]!.file_name)).toBe('a.jpg');
    expect(keys.openFile((await media(entry.photos[0]!.url)).bytes).length).toBeGreaterThan(0);
  });

  it('leaves export and import to the browser (409 here), where the journal is unlocked', async () => {
    const { user } = await vaultUser();
    for (const format of ['txt', 'json', 'md', 'pdf', 'zip']) {
      const res = await inject(user, 'GET', `/api/export?format=${format}`);
      expect(res.statusCode, format).toBe(409);
      expect(res.json().error.message).toBe(errors.browserOnly);
    }
    const file = await multipart({}, [{ name: 'journal.txt', bytes: Buffer.from('[2026-01-01 09:00] A day\n'), type: 'text/plain' }], 'file');
    const res = await t.app.inject({ method: 'POST', url: '/api/import', headers: { ...user.headers, ...file.headers }, payload: file.payload });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(errors.browserOnly);
  });

  it('is not turned on while an import is under way (it would write the journal in the clear)', async () => {
    const user = await journalUser(t);
    const now = new Date().toISOString();
    await t.app.ctx.db.insertInto('import_jobs').values({ id: `imp-${user.id}`, user_id: user.id, status: 'running', file_bytes: 10, file_parts: 1, format: 'jrnl', reasons: null, error: null, claimed_at: now, created_at: now, updated_at: now }).execute();
    const res = await inject(user, 'PUT', '/api/vault', { public_key: (await browserKeys()).publicKey, wrapped_keys: { v: 1 } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(errors.importUnderWay);
  });

  it('answers On This Day with sealed entries, for the browser to open', async () => {
    // A day that is the same date in every US zone, whatever day the suite runs on (not a leap day).
    const before = t.clock.now();
    t.clock.set(new Date('2026-05-09T15:00:00Z'));
    const { user, keys } = await vaultUser();
    const lastYear = '2025-05-09';
    const sealed = await sealedWrite(keys, { text: 'A year ago', at: '2026-11-25T09:00:00.000Z', source: 'web' });
    expect((await inject(user, 'POST', '/api/entries', { entry_date: lastYear, sealed: [sealed] })).statusCode).toBe(201);
    const res = await inject(user, 'GET', '/api/on-this-day');
    expect(res.statusCode).toBe(200);
    expect(res.json().entries).toMatchObject([{ entry_date: lastYear, content: null, sealed: [sealed] }]);
    t.clock.set(before);
  });
});
