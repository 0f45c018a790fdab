import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { masterKeyId } from '../crypto/encryption';
import { createEntry, multipart, testImage } from '../test/journal';
import { buildSmsTestApp, type SmsTestApp } from '../test/sms';
import { bearer, buildUser, signIn } from '../test/factories';
import { rotateMasterKey } from './rotate';

/** The little of s3rver (a CommonJS package without types) this test uses. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: Record<string, unknown>) => S3rverServer;
const BUCKET = 'jotline-photos';
const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('rotating the master key with photos in S3', () => {
  let server: S3rverServer;
  let directory: string;
  let s3Env: Record<string, string>;
  let a: SmsTestApp;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'jotline-keys-s3-'));
    server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: BUCKET }] });
    const address = await server.run();
    s3Env = { STORAGE_URL: `s3://${BUCKET}`, S3_ENDPOINT: `http://127.0.0.1:${address.port}`, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };
    a = await buildSmsTestApp({ env: { ...s3Env, MASTER_KEY: keyA } });
  });
  afterAll(async () => {
    await a?.close();
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('replaces each photo object whole under the new key, and the picture served stays the same', async () => {
    const account = await buildUser(a, { timezone: 'UTC' });
    const headers = bearer(await signIn(a, account));
    const entry = await createEntry(a, { id: account.id, token: '', headers }, { content: 'harbour' });
    const form = await multipart({}, [{ name: 'harbour.png', bytes: await testImage('png', { width: 80, height: 60 }) }]);
    const upload = await a.app.inject({ method: 'POST', url: `/api/entries/${entry.id}/photos`, headers: { ...headers, ...form.headers }, payload: form.payload });
    expect(upload.statusCode, upload.body).toBe(201);
    const served = async (t: SmsTestApp) => {
      const list = await t.app.inject({ method: 'GET', url: '/api/entries', headers: bearer(await signIn(t, account)) });
      const [photo] = (list.json() as { entries: JournalEntry[] }).entries[0]!.photos;
      expect(photo!.file_name).toBe('harbour.png');
      return (await t.app.inject({ method: 'GET', url: photo!.url })).rawPayload;
    };
    const before = await served(a);

    const b = await buildSmsTestApp({ sameDatabaseAs: a, env: { ...s3Env, MASTER_KEY: keyB, MASTER_KEY_PREVIOUS: keyA } });
    try {
      const report = await rotateMasterKey(b.ctx);
      expect(report).toMatchObject({ finished: true, counts: { photoNames: 1, photoFiles: 2, unreadable: 0 } });
      const row = await b.ctx.db.selectFrom('journal_photos').select(['file_path', 'thumb_path']).where('user_id', '=', account.id).executeTakeFirstOrThrow();
      for (const key of [row.file_path, row.thumb_path]) {
        const bytes = await readAll((await b.ctx.storage.get(key))!.stream);
        expect(bytes.subarray(0, 16).toString('latin1')).toBe(`JLPHOTO2${masterKeyId(Buffer.from(keyB, 'base64'))}`);
      }
    } finally {
      await b.close();
    }
    const onlyB = await buildSmsTestApp({ sameDatabaseAs: a, env: { ...s3Env, MASTER_KEY: keyB } });
    try {
      expect(await served(onlyB)).toEqual(before);
    } finally {
      await onlyB.close();
    }
  }, 60_000);
});
