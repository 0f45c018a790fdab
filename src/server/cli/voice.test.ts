import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WHISPER_MODEL, fetchWhisperModel, parseFetchArgs, WHISPER_MODELS_HOME } from './voice';

const run = promisify(execFile);
const bin = resolve(__dirname, '../../../bin/jotline.mjs');

// A model's home on this machine: the file with its right checksum, another file, a server error,
// a connection cut midway, and a redirect (Hugging Face sends downloads on to its CDN).
const model = randomBytes(1024 * 1024);
const other = randomBytes(1024 * 1024);
const models = { 'tiny.en': { sha1: createHash('sha1').update(model).digest('hex'), size: '1 MiB' } };

describe('jotline voice model fetch', () => {
  let server: Server;
  let base: string;
  let dir: string;
  const requests: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url!);
      const [, kind, file] = req.url!.split('/');
      if (file !== 'ggml-tiny.en.bin') return void res.writeHead(404).end();
      if (kind === 'right') return void res.writeHead(200, { 'content-length': model.length }).end(model);
      if (kind === 'wrong') return void res.writeHead(200, { 'content-length': other.length }).end(other);
      if (kind === 'moved') return void res.writeHead(302, { location: `${base}/right/${file}` }).end();
      if (kind === 'cut') {
        res.writeHead(200, { 'content-length': model.length });
        res.write(model.subarray(0, model.length / 2), () => res.destroy());
        return;
      }
      res.writeHead(500).end('oops');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jotline-models-'));
    requests.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the model, the folder and where the models are', () => {
    expect(parseFetchArgs([])).toEqual({ name: DEFAULT_WHISPER_MODEL, dir: null, from: WHISPER_MODELS_HOME });
    expect(parseFetchArgs(['base.en', '--to', 'models', '--from=https://mirror.example/whisper/'])).toEqual({ name: 'base.en', dir: resolve('models'), from: 'https://mirror.example/whisper' });
    expect(parseFetchArgs(['large'])).toEqual({ error: 'There is no model "large" to fetch; choose tiny.en or base.en.' });
    expect(parseFetchArgs(['--from', 'ftp://example.com'])).toEqual({ error: '--from must be an http:// or https:// URL (got "ftp://example.com")' });
    expect(parseFetchArgs(['--to'])).toEqual({ error: '--to needs a value' });
    expect(parseFetchArgs(['tiny.en', 'base.en'])).toEqual({ error: 'Unknown argument: base.en' });
  });

  it('downloads the model, checks its SHA-1 and writes it whole, following a redirect', async () => {
    const fetched = await fetchWhisperModel({ name: 'tiny.en', dir, from: `${base}/moved`, models });
    expect(fetched).toEqual({ path: join(dir, 'ggml-tiny.en.bin'), downloaded: true });
    expect(readFileSync(fetched.path).equals(model)).toBe(true);
    expect(readdirSync(dir)).toEqual(['ggml-tiny.en.bin']);
    // There already with the right checksum: not downloaded again.
    requests.length = 0;
    expect(await fetchWhisperModel({ name: 'tiny.en', dir, from: `${base}/right`, models })).toEqual({ path: fetched.path, downloaded: false });
    expect(requests).toEqual([]);
  });

  it('keeps nothing of a download whose checksum is wrong, that fails, or that is cut midway', async () => {
    await expect(fetchWhisperModel({ name: 'tiny.en', dir, from: `${base}/wrong`, models })).rejects.toThrow(
      `The download from ${base}/wrong/ggml-tiny.en.bin is not ggml-tiny.en.bin as whisper.cpp publishes it (SHA-1 ${createHash('sha1').update(other).digest('hex')}, expected ${models['tiny.en'].sha1}); nothing was written.`,
    );
    expect(readdirSync(dir)).toEqual([]);
    await expect(fetchWhisperModel({ name: 'tiny.en', dir, from: `${base}/broken`, models })).rejects.toThrow(`The download failed: ${base}/broken/ggml-tiny.en.bin answered HTTP 500; nothing was written.`);
    expect(readdirSync(dir)).toEqual([]);
    await expect(fetchWhisperModel({ name: 'tiny.en', dir, from: `${base}/cut`, models })).rejects.toThrow(/^The download from .* was cut off after \d+ bytes \(.+\); nothing was written\. Run the command again\.$/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('replaces a file that is there but is not the model', async () => {
    writeFileSync(join(dir, 'ggml-tiny.en.bin'), 'half a download');
    expect(await fetchWhisperModel({ name: 'tiny.en', dir, from: `${base}/right`, models })).toMatchObject({ downloaded: true });
    expect(readFileSync(join(dir, 'ggml-tiny.en.bin')).equals(model)).toBe(true);
  });

  it('from the command line: checks against the SHA-1 whisper.cpp publishes', async () => {
    const env = { ...process.env, NODE_ENV: 'test', DATA_DIR: dir };
    const refused = await run(process.execPath, [bin, 'voice', 'model', 'fetch', 'tiny.en', '--from', `${base}/right`], { env }).catch((err: { code: number; stdout: string; stderr: string }) => err);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('expected c78c86eb1a8faa21b369bcd33207cc90d64ae9df); nothing was written.') });
    // The folder under DATA_DIR is made, and nothing is left in it.
    expect(refused).toMatchObject({ stdout: expect.stringContaining(`into ${join(dir, 'models')}`) });
    expect(readdirSync(join(dir, 'models'))).toEqual([]);
  }, 60_000);
});
