import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { messages } from '../../shared/messages';
import { ENCRYPTED_OVERHEAD_BYTES } from '../at-rest/photo-files';
import { createEntry, journalUser, multipart, noisyPng, testImage, type JournalTestUser, type TestFile } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { bearer, signIn } from '../test/factories';
import { removeAllPhotoFiles } from '../journal/entry-photos';

const MB = 1024 * 1024;

describe('entry photos', () => {
  let t: TestApp;
  let alice: JournalTestUser;
  let bob: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    alice = await journalUser(t);
    bob = await journalUser(t);
  });
  afterAll(() => t.close());

  const photosDir = () => t.app.ctx.config.storageUrl;
  const upload = async (user: JournalTestUser, entryId: string, files: TestFile[]) => {
    const form = await multipart({}, files);
    return t.app.inject({ method: 'POST', url: `/api/entries/${entryId}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
  };
  const fetchMedia = (url: string) => t.app.inject({ method: 'GET', url });
  const storedFiles = (user: JournalTestUser, entryId: string) => {
    const dir = join(photosDir(), user.id, entryId);
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  it('adds photos of every allowed type and answers with the entry and signed links', async () => {
    const entry = await createEntry(t, alice, { content: 'pictures' });
    const files = await Promise.all((['jpeg', 'png', 'gif', 'webp'] as const).map(async (f) => ({ name: `pic.${f}`, bytes: await testImage(f) })));
    const res = await upload(alice, entry.id, files);
    expect(res.statusCode).toBe(201);
    const body: JournalEntry = res.json();
    expect(body.photos.map((p) => p.mime_type)).toEqual(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
    expect(body.photos.map((p) => p.file_name)).toEqual(['pic.jpeg', 'pic.png', 'pic.gif', 'pic.webp']);
    for (const photo of body.photos) {
      expect(photo.url).toMatch(/^\/media\/[^?]+\?exp=\d+&sig=[\w-]+&variant=full$/);
      const full = await fetchMedia(photo.url);
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-type']).toBe(photo.mime_type);
      expect(full.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
      expect(full.rawPayload.length).toBe(photo.file_size);
      const thumb = await fetchMedia(photo.thumbnail_url);
      expect(thumb.headers['content-type']).toBe('image/webp');
    }
    // Keys are user/entry/timestamp-rand.ext, a thumbnail beside each photo.
    expect(storedFiles(alice, entry.id).sort()).toHaveLength(8);
    expect(storedFiles(alice, entry.id).every((name) => /^\d+-[0-9a-f]{16}\.(jpg|png|gif|webp|thumb\.webp)$/.test(name))).toBe(true);
  });

  it('strips EXIF and GPS metadata and makes a small thumbnail', async () => {
    const entry = await createEntry(t, alice, { content: 'metadata' });
    const original = await testImage('jpeg', { width: 1600, height: 1200, exif: 'GPS-SECRET-LOCATION' });
    expect(original.includes('GPS-SECRET-LOCATION')).toBe(true);
    const res = await upload(alice, entry.id, [{ name: 'camera.jpg', bytes: original }]);
    const photo = (res.json() as JournalEntry).photos[0]!;
    const full = (await fetchMedia(photo.url)).rawPayload;
    expect(full.includes('GPS-SECRET-LOCATION')).toBe(false);
    const meta = await sharp(full).metadata();
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([1600, 1200]);
    const thumb = await sharp((await fetchMedia(photo.thumbnail_url)).rawPayload).metadata();
    expect(thumb.format).toBe('webp');
    expect(Math.max(thumb.width!, thumb.height!)).toBe(480);
  });

  it('decides the type by decoding, not by name or declared type', async () => {
    const entry = await createEntry(t, alice, { content: 'types' });
    const fakes: TestFile[] = [
      { name: 'notes.jpg', bytes: Buffer.from('just some text'), type: 'image/jpeg' },
      { name: 'icon.svg', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'), type: 'image/svg+xml' },
      { name: 'half.jpg', bytes: (await testImage('jpeg', { width: 400, height: 400 })).subarray(0, 600), type: 'image/jpeg' },
      { name: 'image.tiff', bytes: await testImage('jpeg').then((b) => sharp(b).tiff().toBuffer()) },
    ];
    for (const file of fakes) {
      const res = await upload(alice, entry.id, [file]);
      expect(res.statusCode, file.name).toBe(400);
      expect(res.json().error.message).toBe('Invalid file type. Allowed types: jpeg, jpg, png, gif, webp');
    }
    // A real image under a misleading name is fine, stored as what it is.
    const png = await upload(alice, entry.id, [{ name: 'photo.gif', bytes: await testImage('png'), type: 'image/gif' }]);
    expect(png.json().photos[0].mime_type).toBe('image/png');
    // One bad file refuses the whole upload.
    const mixed = await upload(alice, entry.id, [{ name: 'ok.png', bytes: await testImage('png') }, fakes[0]!]);
    expect(mixed.statusCode).toBe(400);
    expect(storedFiles(alice, entry.id)).toHaveLength(2);
  });

  it('refuses a file over 10 MB', async () => {
    const entry = await createEntry(t, alice, { content: 'big' });
    const res = await upload(alice, entry.id, [{ name: 'huge.png', bytes: Buffer.alloc(10 * MB + 1, 1) }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe(messages.entries.fileTooLarge);
  });

  it('keeps an entry’s photos to 10 MB in all, saying how much there would be', async () => {
    const entry = await createEntry(t, alice, { content: 'total' });
    const six = await noisyPng(6 * MB);
    const first = await upload(alice, entry.id, [{ name: 'six.png', bytes: six }]);
    expect(first.statusCode).toBe(201);
    const current = first.json().photos[0].file_size as number;
    const res = await upload(alice, entry.id, [{ name: 'six-again.png', bytes: six }]);
    expect(res.statusCode).toBe(400);
    const mb = (n: number) => (n / MB).toFixed(1);
    expect(res.json().error.message).toBe(`Cannot add photos. Total size would be ${mb(current + six.length)} MB (currently ${mb(current)} MB, max 10MB per entry)`);
  });

  it('allows at most 10 photos per entry', async () => {
    const entry = await createEntry(t, alice, { content: 'count' });
    const small = { name: 'p.png', bytes: await testImage('png', { width: 4, height: 4 }) };
    expect((await upload(alice, entry.id, Array(8).fill(small))).statusCode).toBe(201);
    const over = await upload(alice, entry.id, Array(3).fill(small));
    expect(over.statusCode).toBe(400);
    expect(over.json().error.message).toBe(messages.entries.tooManyPhotos);
    expect((await upload(alice, entry.id, Array(2).fill(small))).statusCode).toBe(201);
    expect((await upload(alice, entry.id, [small])).json().error.message).toBe(messages.entries.tooManyPhotos);
    const fresh = await createEntry(t, alice, { content: 'many at once' });
    expect((await upload(alice, fresh.id, Array(12).fill(small))).json().error.message).toBe(messages.entries.tooManyPhotos);
  });

  it('creates an entry with photos in one multipart request; photos make empty text allowed', async () => {
    const form = await multipart({ content: '  ', tags: ['trip', 'sea'] }, [{ name: 'beach.webp', bytes: await testImage('webp') }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...alice.headers, ...form.headers }, payload: form.payload });
    expect(res.statusCode).toBe(201);
    const entry: JournalEntry = res.json();
    expect(entry).toMatchObject({ content: '', tags: ['trip', 'sea'], word_count: 0 });
    expect(entry.photos).toHaveLength(1);
    // Removing the text of an entry with photos is fine too.
    const edited = await t.app.inject({ method: 'PATCH', url: `/api/entries/${entry.id}`, headers: alice.headers, payload: { content: '' } });
    expect(edited.statusCode).toBe(200);
    const empty = await multipart({ content: '' });
    const refused = await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...alice.headers, ...empty.headers }, payload: empty.payload });
    expect(refused.json().error.message).toBe(messages.entries.contentEmpty);
  });

  it('deletes a photo and its files', async () => {
    const entry = await createEntry(t, alice, { content: 'delete photo' });
    const body: JournalEntry = (await upload(alice, entry.id, [{ name: 'a.png', bytes: await testImage('png') }])).json();
    const photo = body.photos[0]!;
    expect(storedFiles(alice, entry.id)).toHaveLength(2);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}/photos/${photo.id}`, headers: alice.headers });
    expect(res.statusCode).toBe(204);
    expect(storedFiles(alice, entry.id)).toHaveLength(0);
    expect((await fetchMedia(photo.url)).statusCode).toBe(404);
  });

  it('deletes the photo files with their entry', async () => {
    const entry = await createEntry(t, alice, { content: 'delete entry' });
    await upload(alice, entry.id, [{ name: 'a.png', bytes: await testImage('png') }, { name: 'b.jpg', bytes: await testImage('jpeg') }]);
    expect(storedFiles(alice, entry.id)).toHaveLength(4);
    await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}`, headers: alice.headers });
    expect(storedFiles(alice, entry.id)).toHaveLength(0);
    const rows = await t.app.ctx.db.selectFrom('journal_photos').select('id').where('entry_id', '=', entry.id).execute();
    expect(rows).toEqual([]);
  });

  it("answers 404 for another user's entry or photo", async () => {
    const entry = await createEntry(t, alice, { content: 'mine' });
    const photo = (await upload(alice, entry.id, [{ name: 'a.png', bytes: await testImage('png') }])).json().photos[0];
    const add = await upload(bob, entry.id, [{ name: 'b.png', bytes: await testImage('png') }]);
    expect(add.statusCode).toBe(404);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}/photos/${photo.id}`, headers: bob.headers });
    expect(del.statusCode).toBe(404);
    const bobsEntry = await createEntry(t, bob, { content: 'bob' });
    const crossed = await t.app.inject({ method: 'DELETE', url: `/api/entries/${bobsEntry.id}/photos/${photo.id}`, headers: bob.headers });
    expect(crossed.statusCode).toBe(404);
    expect(storedFiles(alice, entry.id)).toHaveLength(2);
    expect(storedFiles(bob, entry.id)).toHaveLength(0);
  });

  it('serves photos only on an unexpired, untampered link (403 otherwise)', async () => {
    const entry = await createEntry(t, alice, { content: 'links' });
    const photo = (await upload(alice, entry.id, [{ name: 'a.png', bytes: await testImage('png') }])).json().photos[0];
    expect((await fetchMedia(photo.url)).statusCode).toBe(200);
    const unsigned = photo.url.split('?')[0];
    expect((await fetchMedia(unsigned)).statusCode).toBe(403);
    expect((await fetchMedia(photo.url.replace(/sig=[\w-]+/, 'sig=AAAA'))).statusCode).toBe(403);
    expect((await fetchMedia(photo.url.replace(/exp=(\d+)/, (_: string, e: string) => `exp=${Number(e) + 3600}`))).statusCode).toBe(403);
    const otherKey = photo.url.replace(alice.id, bob.id);
    expect((await fetchMedia(otherKey)).statusCode).toBe(403);
    // Links are issued on a 5-minute grid: valid for at least 55 minutes, never more than 60.
    t.clock.advance(3300 * 1000 - 1000);
    expect((await fetchMedia(photo.url)).statusCode).toBe(200);
    t.clock.advance(301 * 1000);
    const expired = await fetchMedia(photo.url);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error.message).toBe(messages.entries.linkExpired);
    // A fresh listing signs fresh links.
    alice = { ...alice, headers: bearer(await signIn(t, alice)) };
    const list = await t.app.inject({ method: 'GET', url: '/api/entries?hasPhotos=true&limit=1', headers: alice.headers });
    expect((await fetchMedia(list.json().entries[0].photos[0].url)).statusCode).toBe(200);
  });

  it('refuses an upload that is not multipart or has no file', async () => {
    const entry = await createEntry(t, alice, { content: 'nothing' });
    const json = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: alice.headers, payload: {} });
    expect(json.statusCode).toBe(400);
    const form = await multipart({ note: 'no file' });
    const none = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...alice.headers, ...form.headers }, payload: form.payload });
    expect(none.json().error.message).toBe(messages.entries.noPhotos);
  });
});

describe('removing all of a user’s photo files', () => {
  it('removes every file and names them', async () => {
    const t = await buildTestApp();
    try {
      const user = await journalUser(t);
      const entry = await createEntry(t, user, { content: 'bye' });
      const form = await multipart({}, [{ name: 'a.png', bytes: await testImage('png') }]);
      await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
      const removed = await removeAllPhotoFiles(t.app.ctx, user.id);
      expect(removed).toHaveLength(2);
      expect(readdirSync(join(t.app.ctx.config.storageUrl, user.id, entry.id))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('the app’s photo storage', () => {
  it('is the one STORAGE_URL names, on the app context beside the journal held in memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jotline-photos-'));
    const t = await buildTestApp({ STORAGE_URL: `file://${dir}` });
    try {
      const user = await journalUser(t);
      const entry = await createEntry(t, user, { content: 'stored elsewhere' });
      const form = await multipart({}, [{ name: 'a.png', bytes: await testImage('png') }]);
      const res = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
      const photo = (res.json() as JournalEntry).photos[0]!;
      const key = decodeURIComponent(new URL(photo.url, t.app.ctx.config.publicUrl).pathname.replace(/^\/media\//, ''));
      expect(existsSync(join(dir, key))).toBe(true);
      const stored = await t.app.ctx.storage.get(key);
      stored!.stream.destroy();
      // Stored encrypted: the header, IV and tag on top of the photo's own size.
      expect(stored!.size).toBe(photo.file_size + ENCRYPTED_OVERHEAD_BYTES);
      const [cached] = await t.app.ctx.journalCache.entries(user.id);
      expect(cached!.photos.map((p) => p.file_path)).toEqual([key]);
      expect((await t.app.inject({ method: 'GET', url: photo.url })).statusCode).toBe(200);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
