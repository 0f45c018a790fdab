import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { manualClock } from './clock';
import { loadConfig } from './config';

const shellOf = (script: string) => `<!doctype html><html><head><script type="module" src="/assets/${script}"></script></head><body><div id="root"></div></body></html>`;

/** A built web app in `dir`: a shell and the one chunk it loads. */
function writeBuild(dir: string, chunk: string) {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), shellOf(chunk));
  writeFileSync(join(dir, 'assets', chunk), `export const build = ${JSON.stringify(chunk)};\n`);
}

/** What the build does (scripts/build.mjs): the new build beside the served one, the previous one's assets kept, then swapped in. */
async function swapInBuild(webRoot: string, chunk: string) {
  const { keepPreviousAssets } = await import(pathToFileURL(resolve('scripts/keep-assets.mjs')).href);
  const next = `${webRoot}.next`;
  writeBuild(next, chunk);
  keepPreviousAssets(webRoot, next);
  renameSync(webRoot, `${webRoot}.old`);
  renameSync(next, webRoot);
  rmSync(`${webRoot}.old`, { recursive: true, force: true });
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function serveBuilt(chunk: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'jotline-new-build-'));
  dirs.push(dataDir);
  const webRoot = join(dataDir, 'web');
  writeBuild(webRoot, chunk);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.TEST_DATABASE_URL ?? `sqlite:${join(dataDir, 'test.db')}`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'http://jotline.test',
    LOG_LEVEL: 'silent',
    JOBS: 'off',
  });
  const app = await buildApp(config, { clock: manualClock(new Date('2026-11-20T15:00:00Z')), serveWeb: true, webRoot });
  await app.ready();
  return { app, webRoot };
}

describe('a new build while the server runs', () => {
  it('hands out the new shell, whose scripts exist, and still serves the chunks an open tab of the old build asks for', async () => {
    const { app, webRoot } = await serveBuilt('index-OLD1.js');
    try {
      const before = await app.inject({ method: 'GET', url: '/journal', headers: { 'accept-encoding': 'identity' } });
      expect(before.body).toBe(shellOf('index-OLD1.js'));

      await swapInBuild(webRoot, 'index-NEW2.js');
      const after = await app.inject({ method: 'GET', url: '/journal', headers: { 'accept-encoding': 'identity' } });
      expect(after.body).toBe(shellOf('index-NEW2.js'));
      expect((await app.inject({ method: 'GET', url: '/assets/index-NEW2.js' })).statusCode).toBe(200);
      // A tab opened before the build loads its page chunks later: they are still there.
      const old = await app.inject({ method: 'GET', url: '/assets/index-OLD1.js' });
      expect(old.statusCode).toBe(200);
      expect(old.body).toContain('index-OLD1.js');
    } finally {
      await app.close();
    }
  });

  it('keeps one build back, not every build', async () => {
    const { app, webRoot } = await serveBuilt('index-A.js');
    try {
      await swapInBuild(webRoot, 'index-B.js');
      await swapInBuild(webRoot, 'index-C.js');
      expect(readdirSync(join(webRoot, 'assets')).sort()).toEqual(['index-B.js', 'index-C.js']);
      expect(existsSync(join(webRoot, 'assets', 'index-A.js'))).toBe(false);
      expect((await app.inject({ method: 'GET', url: '/assets/index-B.js' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('pages for every client', () => {
  it('answers the home page and any folder with a page, whatever encodings the client takes (a link preview, a monitor, curl)', async () => {
    const { app, webRoot } = await serveBuilt('index-H.js');
    try {
      mkdirSync(join(webRoot, 'prerendered'), { recursive: true });
      writeFileSync(join(webRoot, 'prerendered', 'index.html'), '<!doctype html><title>Landing</title>');
      writeFileSync(join(webRoot, 'prerendered', 'index.html.br'), 'not really brotli');
      for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip' }]) {
        const home = await app.inject({ method: 'GET', url: '/', headers });
        expect(home.statusCode).toBe(200);
        expect(home.body).toContain('Landing');
      }
      // A folder of the build is no page: the app's 404, never a bare 403.
      for (const url of ['/assets/', '/prerendered/']) {
        const folder = await app.inject({ method: 'GET', url });
        expect(folder.statusCode).toBe(404);
        expect(folder.headers['content-type']).toMatch(/^text\/html/);
      }
    } finally {
      await app.close();
    }
  });
});
