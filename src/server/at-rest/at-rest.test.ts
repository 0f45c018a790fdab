import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { buildApp } from '../app';
import { manualClock } from '../clock';
import { loadConfig } from '../config';
import { newId } from '../ids';
import { createEntry, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { bearer, buildUser, signIn } from '../test/factories';

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every directory and file under `root`, itself included. */
function walk(root: string): Array<{ path: string; dir: boolean }> {
  const found = [{ path: root, dir: true }];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) found.push(...walk(path));
    else found.push({ path, dir: false });
  }
  return found;
}

async function signedInUser(t: TestApp): Promise<JournalTestUser> {
  const account = await buildUser(t, { timezone: 'UTC' });
  const token = await signIn(t, account);
  return { id: account.id, token, headers: bearer(token) };
}

async function addPhoto(t: TestApp, user: JournalTestUser, name: string, bytes: Buffer): Promise<{ entry: JournalEntry; photo: JournalEntry['photos'][number] }> {
  const entry = await createEntry(t, user, { content: 'a photo day' });
  const form = await multipart({}, [{ name, bytes }]);
  const res = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
  expect(res.statusCode).toBe(201);
  const withPhoto = res.json() as JournalEntry;
  return { entry: withPhoto, photo: withPhoto.photos[0]! };
}

describe('data at rest on local disk', () => {
  let root: string;
  let dataDir: string;
  let t: TestApp;
  let previousUmask: number;

  beforeAll(async () => {
    // The most permissive umask there is: what the server creates must still be owner-only.
    previousUmask = process.umask(0);
    root = mkdtempSync(join(tmpdir(), 'jotline-at-rest-'));
    dataDir = join(root, 'fresh', 'data');
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'http://jotline.test', LOG_LEVEL: 'silent', JOBS: 'off' });
    const clock = manualClock(new Date('2026-07-01T12:00:00Z'));
    const app = await buildApp(config, { clock, serveWeb: false });
    await app.ready();
    t = { app, clock, dataDir, close: () => app.close() };
  });
  afterAll(async () => {
    await t.close();
    process.umask(previousUmask);
    rmSync(root, { recursive: true, force: true });
  });

  it('creates DATA_DIR, the SQLite files, the key and photo folders and files owner-only whatever the umask', async () => {
    const user = await signedInUser(t);
    await addPhoto(t, user, 'beach.jpg', await testImage('jpeg', { width: 300, height: 200 }));

    expect(modeOf(dataDir)).toBe(0o700);
    const files = readdirSync(dataDir);
    expect(files).toEqual(expect.arrayContaining(['jotline.db', 'jotline.db-wal', 'master.key', 'photos']));
    for (const name of files.filter((f) => f !== 'photos')) expect(modeOf(join(dataDir, name)), name).toBe(0o600);
    const photos = walk(join(dataDir, 'photos'));
    expect(photos.filter((p) => !p.dir)).toHaveLength(2);
    for (const p of photos) expect(modeOf(p.path), p.path).toBe(p.dir ? 0o700 : 0o600);
  });

  it('keeps photo files encrypted on disk and the file name encrypted in the database; the signed link serves the image', async () => {
    const user = await signedInUser(t);
    const original = await testImage('jpeg', { width: 400, height: 300 });
    const { entry, photo } = await addPhoto(t, user, 'private-holiday.jpg', original);
    expect(photo.file_name).toBe('private-holiday.jpg');

    const row = await t.app.ctx.db.selectFrom('journal_photos').selectAll().where('id', '=', photo.id).executeTakeFirstOrThrow();
    expect(row.file_name.startsWith('ENC:')).toBe(true);
    expect(row.file_name).not.toContain('holiday');
    for (const key of [row.file_path, row.thumb_path]) {
      const onDisk = readFileSync(join(t.app.ctx.config.storageUrl, key));
      expect(onDisk.subarray(0, 3).equals(JPEG_MAGIC)).toBe(false);
      expect(onDisk.includes(JPEG_MAGIC)).toBe(false);
      expect(onDisk.includes(Buffer.from('WEBP'))).toBe(false);
      await expect(sharp(onDisk).metadata()).rejects.toThrow();
    }

    const full = await t.app.inject({ method: 'GET', url: photo.url });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('image/jpeg');
    expect(Number(full.headers['content-length'])).toBe(full.rawPayload.length);
    expect(full.rawPayload.subarray(0, 3).equals(JPEG_MAGIC)).toBe(true);
    expect(await sharp(full.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 400, height: 300 });
    const thumb = await t.app.inject({ method: 'GET', url: photo.thumbnail_url });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect((await sharp(thumb.rawPayload).metadata()).format).toBe('webp');

    // Exports read the names and the pictures too.
    const text = await t.app.inject({ method: 'GET', url: '/api/export?format=txt&photos=true', headers: user.headers });
    expect(text.body).toContain('private-holiday.jpg');
    const pdf = await t.app.inject({ method: 'GET', url: '/api/export?format=pdf&photos=true', headers: user.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.includes(Buffer.from('/Subtype /Image'))).toBe(true);
    expect(entry.photos).toHaveLength(1);
  });

  it('still serves a photo stored before encryption, with its plain file name', async () => {
    const user = await signedInUser(t);
    const entry = await createEntry(t, user, { content: 'an older day' });
    const legacy = await testImage('jpeg', { width: 120, height: 90 });
    const key = `${user.id}/${entry.id}/1700000000000-00112233aabbccdd.jpg`;
    const thumbKey = `${user.id}/${entry.id}/1700000000000-00112233aabbccdd.thumb.webp`;
    await t.app.ctx.storage.put(key, legacy, 'image/jpeg');
    await t.app.ctx.storage.put(thumbKey, await sharp(legacy).webp().toBuffer(), 'image/webp');
    await t.app.ctx.db
      .insertInto('journal_photos')
      .values({ id: newId(), entry_id: entry.id, user_id: user.id, file_path: key, thumb_path: thumbKey, file_name: 'old-name.jpg', file_size: legacy.length, mime_type: 'image/jpeg', position: 0, created_at: '2026-07-01T12:00:00.000Z' })
      .execute();
    t.app.ctx.journalCache.forget(user.id);

    const listed = await t.app.inject({ method: 'GET', url: '/api/entries', headers: user.headers });
    const photo = (listed.json() as { entries: JournalEntry[] }).entries.find((e) => e.id === entry.id)!.photos[0]!;
    expect(photo.file_name).toBe('old-name.jpg');
    const served = await t.app.inject({ method: 'GET', url: photo.url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(legacy)).toBe(true);
  });
});

/** The little of s3rver (a CommonJS package without types) these tests use. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: Record<string, unknown>) => S3rverServer;

describe('data at rest in S3', () => {
  const BUCKET = 'jotline-at-rest';
  let server: S3rverServer;
  let directory: string;
  let endpoint: string;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'jotline-s3-at-rest-'));
    server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: BUCKET }] });
    endpoint = `http://127.0.0.1:${(await server.run()).port}`;
  });
  afterAll(async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('stores no readable image in the bucket and serves the decrypted photo from the signed link', async () => {
    const t = await buildTestApp({ STORAGE_URL: `s3://${BUCKET}`, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    try {
      const user = await signedInUser(t);
      const { photo } = await addPhoto(t, user, 'bucket.jpg', await testImage('jpeg', { width: 200, height: 100 }));
      const row = await t.app.ctx.db.selectFrom('journal_photos').selectAll().where('id', '=', photo.id).executeTakeFirstOrThrow();
      const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
      for (const key of [row.file_path, row.thumb_path]) {
        const object = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
        const bytes = Buffer.from(await object.Body!.transformToByteArray());
        expect(bytes.includes(JPEG_MAGIC)).toBe(false);
        expect(object.ContentType).toBe('application/octet-stream');
      }
      const served = await t.app.inject({ method: 'GET', url: photo.url });
      expect(served.statusCode).toBe(200);
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 200, height: 100 });
    } finally {
      await t.close();
    }
  });
});
