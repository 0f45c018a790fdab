import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { manualClock } from '../clock';
import { loadConfig } from '../config';
import { createEntry, journalUser } from '../test/journal';
import type { TestApp } from '../test/app';
import { preferredEncoding } from './index';

const ASSET = `/assets/app-${'a1b2c3'}.js`;
const assetSource = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `journal line ${i}`))};\n`;
const shell = `<!doctype html><html><head><title>Jotline</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(200)}</body></html>`;

/** The whole app serving a small built web app (with the copies the build pre-compresses). */
async function buildWebApp(): Promise<TestApp & { webRoot: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'jotline-compress-'));
  const webRoot = join(dataDir, 'web');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  const files: Record<string, string> = { 'index.html': shell, [ASSET.slice(1)]: assetSource };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(webRoot, name), text);
    writeFileSync(join(webRoot, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(webRoot, `${name}.gz`), gzipSync(text));
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.TEST_DATABASE_URL ?? `sqlite:${join(dataDir, 'test.db')}`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'http://jotline.test',
    LOG_LEVEL: 'silent',
    JOBS: 'off',
  });
  const clock = manualClock(new Date('2026-11-20T15:00:00Z'));
  const app = await buildApp(config, { clock, serveWeb: true, webRoot });
  await app.ready();
  return {
    app,
    clock,
    dataDir,
    webRoot,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let t: Awaited<ReturnType<typeof buildWebApp>>;
beforeAll(async () => {
  t = await buildWebApp();
});
afterAll(async () => {
  await t.close();
});

describe('built assets', () => {
  it('sends the brotli copy, smaller, to a browser that accepts br', async () => {
    const res = await t.app.inject({ method: 'GET', url: ASSET, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(res.headers['content-length'])).toBeLessThan(Buffer.byteLength(assetSource) / 2);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(assetSource);
  });

  it('sends gzip when brotli is not accepted, and the raw file when nothing is', async () => {
    const gz = await t.app.inject({ method: 'GET', url: ASSET, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(assetSource);

    const raw = await t.app.inject({ method: 'GET', url: ASSET, headers: { 'accept-encoding': 'identity' } });
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(raw.headers['content-length'])).toBe(Buffer.byteLength(assetSource));
    expect(raw.body).toBe(assetSource);
  });

  it('sends pages compressed too, keeping their status', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/journal', headers: { 'accept-encoding': 'br' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(shell);

    const missing = await t.app.inject({ method: 'GET', url: '/no-such-page', headers: { 'accept-encoding': 'gzip' } });
    expect(missing.statusCode).toBe(404);
    expect(gunzipSync(missing.rawPayload).toString()).toBe(shell);
  });
});

describe('API answers', () => {
  it('compresses a large JSON answer and leaves a small one alone', async () => {
    const user = await journalUser(t);
    for (let i = 0; i < 6; i += 1) {
      await createEntry(t, user, { content: `Day ${i}: ${'we walked by the river and talked about the week. '.repeat(20)}`, entry_date: `2026-11-1${i}` });
    }
    const big = await t.app.inject({ method: 'GET', url: '/api/entries', headers: { ...user.headers, 'accept-encoding': 'br, gzip' } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers.vary).toMatch(/accept-encoding/i);
    const body = JSON.parse(brotliDecompressSync(big.rawPayload).toString());
    expect(body.entries).toHaveLength(6);
    expect(big.rawPayload.length).toBeLessThan(Buffer.byteLength(JSON.stringify(body)) / 2);

    const small = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
  });

  it('keeps the journal page compressed for each encoding, and never a page older than the journal', async () => {
    const user = await journalUser(t);
    const list = (encoding?: string) =>
      t.app.inject({ method: 'GET', url: '/api/entries', headers: { ...user.headers, ...(encoding ? { 'accept-encoding': encoding } : {}) } });
    const empty = await list('br');
    expect(empty.headers['content-encoding']).toBeUndefined();
    expect(empty.json()).toEqual({ entries: [], nextCursor: null });

    for (let i = 0; i < 4; i += 1) {
      await createEntry(t, user, { content: `Evening ${i}: ${'the lake was still and the light went slowly. '.repeat(20)}`, entry_date: `2026-10-1${i}` });
    }
    const plain = await list();
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [encoding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      const [once, again] = [await list(encoding), await list(encoding)];
      for (const answer of [once, again]) {
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['content-encoding']).toBe(encoding);
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(answer.headers['cache-control']).toBe('private, no-store');
        expect(answer.headers.vary).toMatch(/accept-encoding/i);
        expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
        expect(decode(answer.rawPayload).toString()).toBe(plain.body);
      }
    }

    await createEntry(t, user, { content: `A new morning: ${'coffee on the step. '.repeat(40)}`, entry_date: '2026-10-20' });
    const changed = JSON.parse(brotliDecompressSync((await list('br')).rawPayload).toString());
    expect(changed.entries).toHaveLength(5);
    expect(changed.entries.filter((e: { content: string }) => e.content.startsWith('A new morning'))).toHaveLength(1);
  });

  it('never compresses or buffers the event stream', async () => {
    const user = await journalUser(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const first = await new Promise<{ headers: Record<string, unknown>; chunk: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/api/events', headers: { ...user.headers, 'accept-encoding': 'br, gzip' } },
        (res) => {
          res.once('data', (chunk: Buffer) => {
            resolve({ headers: res.headers, chunk: chunk.toString() });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      req.setTimeout(5000, () => reject(new Error('the stream sent nothing')));
      req.end();
    });
    expect(first.headers['content-type']).toMatch(/text\/event-stream/);
    expect(first.headers['content-encoding']).toBeUndefined();
    // The first event arrives as plain text at once, not held back by a compressor.
    expect(first.chunk).toContain(': connected');
  });
});

describe('preferredEncoding', () => {
  it('prefers brotli, honours q=0 and wildcards', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding(undefined)).toBeUndefined();
  });
});
