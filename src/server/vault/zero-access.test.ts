import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SealedJournalEntry } from '../../shared/journal';
import { buildApp } from '../app';
import { manualClock } from '../clock';
import { loadConfig } from '../config';
import type { AppContext } from '../context';
import { multipart, testImage, type JournalTestUser } from '../test/journal';
import { processInboundMessage } from '../sms/inbound-job';
import { mmsFields, newMessageSid, startFakeMediaHost, type FakeMediaHost } from '../test/sms';
import type { TestApp } from '../test/app';
import { bearer, buildUser, signIn, type TestUser } from '../test/factories';
import { loadSodium } from '../crypto/sodium';
import { browserKeys, sealedPhotoForm, sealedWrite, sealJournal, turnOn, type BrowserKeys } from '../test/vault';
import { cacheCanRead, databaseCanRead, serverDecryptsFile, serverDecryptsText, storageCanRead, storedFilesOf } from '../test/vault-zero-access';

// The Vault's promise, checked end to end: after a text, an MMS photo and a web entry, nothing the
// server keeps (database rows, files, log lines, its journal in memory) holds them in a form it can
// open, its own code and keys open none of it, and the owner's private key opens all of it.

describe('zero access: what a Vault journal leaves the server', () => {
  let t: TestApp;
  let ctx: AppContext;
  let media: FakeMediaHost;
  let dataDir: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'jotline-zero-access-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? `sqlite:${join(dataDir, 'test.db')}`,
      MASTER_KEY: randomBytes(32).toString('base64'),
      PUBLIC_URL: 'http://jotline.test',
      // Everything the app can say, at every level, is kept to be searched.
      LOG_LEVEL: 'trace',
      JOBS: 'off',
      SMS_PROVIDER: 'simulator',
    });
    const clock = manualClock(process.env.TEST_NOW ? new Date(process.env.TEST_NOW) : new Date());
    const app: FastifyInstance = await buildApp(config, { clock, serveWeb: false, logDestination: { write: (line: string) => void logLines.push(line) } });
    await app.ready();
    t = { app, clock, dataDir, close: () => app.close() };
    ctx = app.ctx;
    media = await startFakeMediaHost();
  });
  afterAll(async () => {
    await t?.close();
    await media?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A text to the journal number, processed (only this one: other tests may share the database). */
  async function text(account: TestUser, body: string, extra: Record<string, string> = {}) {
    const params = { MessageSid: newMessageSid(), From: account.phone, To: ctx.config.journalNumber, Body: body, NumMedia: '0', ...extra };
    const res = await t.app.inject({ method: 'POST', url: '/webhooks/twilio/sms', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(params).toString() });
    expect(res.statusCode).toBe(200);
    const row = await ctx.db.selectFrom('sms_messages').select('id').where('provider_message_id', '=', params.MessageSid).executeTakeFirstOrThrow();
    expect(await processInboundMessage(ctx, row.id)).toEqual({ status: 'processed' });
  }

  it('keeps a text, an MMS photo and a web entry only sealed, and only the private key opens them', async () => {
    const account = await buildUser(t, { timezone: 'UTC' });
    const user: JournalTestUser = { id: account.id, token: '', headers: bearer(await signIn(t, account)) };
    // A journal written before the vault: an entry with a photo, and a text.
    const before = await multipart({ content: 'Gondola ride before the vault', title: 'Venice' }, [{ name: 'gondola.jpg', bytes: await testImage('jpeg', { width: 70 }) }]);
    expect((await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...user.headers, ...before.headers }, payload: before.payload })).statusCode).toBe(201);
    await text(account, 'Aardvark sighting before the vault');

    const keys: BrowserKeys = await browserKeys();
    await turnOn(t, user, keys);
    await sealJournal(t, user);

    // A text, an MMS photo (the host serves a PNG), and a web entry with a photo sealed in the browser.
    t.clock.set(new Date(t.clock.now().getTime() + 60_000));
    await text(account, 'Zeppelin over the harbour');
    await text(account, 'Quokka selfie', mmsFields([media.photoUrl()]));
    const webPhoto = await testImage('webp', { width: 88 });
    const form = await sealedPhotoForm(keys, { sealed: await sealedWrite(keys, { text: 'Xylophone lesson', title: 'Music', tags: ['lessons'], at: '2026-11-25T16:30:00.000Z', source: 'web' }), word_count: '2' }, [
      { name: 'xylophone.webp', bytes: webPhoto, thumb: await testImage('webp', { width: 20 }), type: 'image/webp' },
    ]);
    expect((await t.app.inject({ method: 'POST', url: '/api/entries', headers: { ...user.headers, ...form.headers }, payload: form.payload })).statusCode).toBe(201);
    // The journal is read (the server's memory now holds it), as the browser would.
    const listed = (await t.app.inject({ method: 'GET', url: '/api/entries', headers: user.headers })).json().entries as SealedJournalEntry[];
    expect(listed.every((e) => e.content === null && e.sealed.length >= 0)).toBe(true);

    // Every sealed segment, photo file and photo name opens with the private key, to what was written.
    const rows = await ctx.db.selectFrom('journal_entries').selectAll().where('user_id', '=', account.id).execute();
    const segments = rows.flatMap((r) => JSON.parse(r.sealed!) as string[]);
    const texts = segments.map((s) => keys.openSegment(s).text);
    expect(texts.sort()).toEqual(['Aardvark sighting before the vault', 'Gondola ride before the vault', 'Quokka selfie', 'Xylophone lesson', 'Zeppelin over the harbour']);
    const photos = await ctx.db.selectFrom('journal_photos').selectAll().where('user_id', '=', account.id).execute();
    expect(photos.map((p) => keys.open(p.file_name)).sort()).toEqual(['gondola.jpg', 'mms-1.png', 'xylophone.webp']);
    const files = storedFilesOf(ctx, account.id);
    expect(files).toHaveLength(6);
    const opened = files.map((file) => keys.openFile(file));
    // The MMS photo as processing prepared it (metadata stripped), and the browser's photo as sent.
    const formats = await Promise.all(opened.map(async (bytes) => (await sharp(bytes).metadata()).format));
    expect(formats.sort()).toEqual(['jpeg', 'png', 'webp', 'webp', 'webp', 'webp']);
    expect(opened.some((bytes) => bytes.equals(webPhoto))).toBe(true);

    // Nothing the server keeps holds them in a form it can open: rows, files, logs, memory.
    const words = ['Zeppelin', 'Quokka', 'Xylophone', 'Music', 'lessons', 'Aardvark', 'Gondola', 'Venice', 'xylophone.webp', 'mms-1.png', 'gondola.jpg'];
    for (const word of words) {
      expect(await databaseCanRead(ctx, account.id, word), word).toBe(false);
      expect(await cacheCanRead(ctx, account.id, word), word).toBe(false);
      expect(logLines.some((line) => line.includes(word)), word).toBe(false);
    }
    for (const picture of opened) expect(await storageCanRead(ctx, account.id, picture)).toBe(false);
    expect(logLines.length).toBeGreaterThan(0);

    // The server's own code with MASTER_KEY opens none of it, and neither does any secret it holds.
    for (const file of files) expect(await serverDecryptsFile(ctx, account.id, file)).toBe(false);
    for (const value of [...segments, ...photos.map((p) => p.file_name)]) expect(await serverDecryptsText(ctx, account.id, value)).toBe(false);
    const sodium = await loadSodium();
    const vault = await ctx.db.selectFrom('vaults').select('public_key').where('user_id', '=', account.id).executeTakeFirstOrThrow();
    for (const secret of [ctx.config.masterKey!, ctx.keys.accessToken, ctx.keys.links, ctx.keys.storedHashes]) {
      const privateKey = Uint8Array.from(secret).subarray(0, 32);
      for (const sealed of segments) expect(() => sodium.crypto_box_seal_open(Buffer.from(sealed, 'base64'), Buffer.from(vault.public_key, 'base64'), privateKey)).toThrow();
    }
    // No body of a journaled text is kept.
    const bodies = await ctx.db.selectFrom('sms_messages').select('body').where('user_id', '=', account.id).where('direction', '=', 'inbound').execute();
    expect(bodies.every((b) => b.body === null)).toBe(true);
  });
});
