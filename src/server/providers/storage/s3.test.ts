import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { HeadObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException, type PutObjectCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../shared/journal';
import { createEntry, multipart, type JournalTestUser } from '../../test/journal';
import { buildTestApp } from '../../test/app';
import { bearer, buildUser, signIn } from '../../test/factories';
import { createS3Storage, StorageKeyExistsError, type S3StorageSettings } from './s3';

/** The little of s3rver (a CommonJS package without types) these tests use. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

const BUCKET = 'jotline-photos';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let server: S3rverServer;
let directory: string;
let endpoint: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'jotline-s3-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: BUCKET }] });
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

const settings = (extra: Partial<S3StorageSettings> = {}): S3StorageSettings => ({
  bucket: BUCKET,
  endpoint,
  region: 'us-east-1',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
  ...extra,
});

const client = () =>
  new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });

async function keysUnder(prefix: string): Promise<string[]> {
  const listed = await client().send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

describe('S3 photo storage', () => {
  it('stores, streams back with its content type and size, and deletes', async () => {
    const storage = createS3Storage(settings());
    const body = Buffer.from('not really a jpeg, but bytes all the same');
    await storage.put('u1/e1/1-abc.jpg', body, 'image/jpeg');
    const stored = await storage.get('u1/e1/1-abc.jpg');
    expect(stored).not.toBeNull();
    expect(stored!.contentType).toBe('image/jpeg');
    expect(stored!.size).toBe(body.length);
    expect(await readAll(stored!.stream)).toEqual(body);
    await storage.delete('u1/e1/1-abc.jpg');
    expect(await storage.get('u1/e1/1-abc.jpg')).toBeNull();
  });

  it('refuses to overwrite an existing key', async () => {
    const storage = createS3Storage(settings());
    await storage.put('u1/e2/1-once.png', Buffer.from('first'), 'image/png');
    await expect(storage.put('u1/e2/1-once.png', Buffer.from('second'), 'image/png')).rejects.toBeInstanceOf(StorageKeyExistsError);
    const stored = await storage.get('u1/e2/1-once.png');
    expect((await readAll(stored!.stream)).toString()).toBe('first');
  });

  it('answers null for a missing key and deletes idempotently', async () => {
    const storage = createS3Storage(settings());
    expect(await storage.get('u1/e3/nothing.jpg')).toBeNull();
    expect(await storage.get('../escape')).toBeNull();
    await storage.delete('u1/e3/nothing.jpg');
    await storage.put('u1/e3/1-twice.jpg', Buffer.from('x'), 'image/jpeg');
    await storage.delete('u1/e3/1-twice.jpg');
    await storage.delete('u1/e3/1-twice.jpg');
    expect(await storage.get('u1/e3/1-twice.jpg')).toBeNull();
  });

  it('keeps keys under the configured prefix', async () => {
    const storage = createS3Storage(settings({ prefix: 'tenant-a/' }));
    await storage.put('u2/e1/1-p.webp', Buffer.from('w'), 'image/webp');
    expect(await keysUnder('tenant-a/u2/')).toEqual(['tenant-a/u2/e1/1-p.webp']);
    expect(await createS3Storage(settings()).get('u2/e1/1-p.webp')).toBeNull();
    await storage.delete('u2/e1/1-p.webp');
    expect(await keysUnder('tenant-a/')).toEqual([]);
  });
});

describe('S3 photo storage on servers with and without conditional writes', () => {
  const failure = (name: string, status: number) =>
    new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message: name });
  /** A client that answers HeadObject with 404 and PutObject as `onPut` says. */
  const fakeClient = (onPut: (input: PutObjectCommand['input']) => void) => {
    const puts: PutObjectCommand['input'][] = [];
    const send = async (command: { input: unknown }) => {
      if (command instanceof HeadObjectCommand) throw failure('NotFound', 404);
      const input = command.input as PutObjectCommand['input'];
      puts.push(input);
      onPut(input);
      return {};
    };
    return { client: { send } as unknown as S3Client, puts };
  };

  it('sends If-None-Match: * and reports a lost race as an existing key', async () => {
    const { client: s3, puts } = fakeClient(() => {
      throw failure('PreconditionFailed', 412);
    });
    await expect(createS3Storage(settings(), s3).put('u/e/1-a.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toBeInstanceOf(StorageKeyExistsError);
    expect(puts.map((p) => p.IfNoneMatch)).toEqual(['*']);
  });

  it('writes without the condition on a server that refuses it', async () => {
    const { client: s3, puts } = fakeClient((input) => {
      if (input.IfNoneMatch) throw failure('NotImplemented', 501);
    });
    const storage = createS3Storage(settings(), s3);
    await storage.put('u/e/1-a.jpg', Buffer.from('x'), 'image/jpeg');
    await storage.put('u/e/1-b.jpg', Buffer.from('y'), 'image/jpeg');
    expect(puts.map((p) => p.IfNoneMatch)).toEqual(['*', undefined, undefined]);
  });
});

describe('photos through the app on S3 storage', () => {
  it('uploads a photo to the bucket, serves it from its signed link and removes it with the entry', async () => {
    const t = await buildTestApp({ STORAGE_URL: `s3://${BUCKET}`, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    try {
      const account = await buildUser(t, { timezone: 'UTC' });
      const user: JournalTestUser = { id: account.id, token: '', headers: bearer(await signIn(t, account)) };
      const entry = await createEntry(t, user, { content: 'photo in a bucket' });
      const image = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#10b981' } }).png().toBuffer();
      const form = await multipart({}, [{ name: 'garden.png', bytes: image }]);
      const res = await t.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...user.headers, ...form.headers }, payload: form.payload });
      expect(res.statusCode).toBe(201);
      const photo = (res.json() as JournalEntry).photos[0]!;

      const stored = await keysUnder(`${user.id}/${entry.id}/`);
      expect(stored).toHaveLength(2);
      expect(stored.every((key) => /\/\d+-[0-9a-f]{16}\.(png|thumb\.webp)$/.test(key))).toBe(true);

      const full = await t.app.inject({ method: 'GET', url: photo.url });
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-type']).toBe('image/png');
      expect(full.rawPayload.length).toBe(photo.file_size);
      const meta = await sharp(full.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 120, 80]);
      const thumb = await t.app.inject({ method: 'GET', url: photo.thumbnail_url });
      expect(thumb.statusCode).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/webp');

      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/entries/${entry.id}`, headers: user.headers });
      expect(deleted.statusCode).toBe(204);
      expect(await keysUnder(`${user.id}/`)).toEqual([]);
      expect((await t.app.inject({ method: 'GET', url: photo.url })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
