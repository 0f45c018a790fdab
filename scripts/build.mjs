#!/usr/bin/env node
// Builds the web app (Vite), then pre-renders the public pages to HTML so crawlers read them
// without JavaScript. Writes a fingerprint of the inputs so `npm start` can skip a fresh build.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, loadEnv } from 'vite';
import { inputFingerprint, STAMP_FILE } from './fingerprint.mjs';
import { keepPreviousAssets } from './keep-assets.mjs';
import { precompress } from './precompress.mjs';

const root = resolve(import.meta.dirname, '..');
const webDir = join(root, 'dist/web');
// The build is written beside the one being served and takes its place whole at the end: a running
// server never serves half a build, nor a shell whose scripts are not written yet.
const nextDir = join(root, 'dist/web.next');
const oldDir = join(root, 'dist/web.old');
const ssrDir = join(root, 'dist/ssr');

export async function buildAll({ quiet = false } = {}) {
  const logLevel = quiet ? 'warn' : 'info';
  // The public pages publish the number the server answers on (JOURNAL_NUMBER, from the environment or .env).
  const journalNumber = loadEnv('production', root, '').JOURNAL_NUMBER;
  if (journalNumber && !process.env.VITE_JOURNAL_NUMBER) process.env.VITE_JOURNAL_NUMBER = journalNumber;
  // Vite keeps a NODE_ENV it finds, and React picks its development build under NODE_ENV=development
  // (`NODE_ENV=development npm start`): the bundle is a production one whatever the shell says.
  process.env.NODE_ENV = 'production';
  rmSync(nextDir, { recursive: true, force: true });
  await build({ root, logLevel, build: { outDir: nextDir, emptyOutDir: true } });
  await build({
    root,
    logLevel,
    build: { ssr: 'src/web/prerender.tsx', outDir: ssrDir, emptyOutDir: true, copyPublicDir: false, sourcemap: false },
  });
  const { prerender, appShellPlaceholder } = await import(pathToFileURL(join(ssrDir, 'prerender.js')).href);
  const template = readFileSync(join(nextDir, 'index.html'), 'utf8');
  // The public pages are complete as HTML: they ship without the app's scripts (see prerender.tsx).
  const withoutApp = template.replace(/\s*<script type="module"[^>]*><\/script>/g, '').replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
  for (const page of await prerender()) {
    const html = (page.runsApp ? template : withoutApp)
      .replace(/\s*<meta name="robots"[^>]*>/, '')
      .replace(/<title[^>]*>[^<]*<\/title>/, '')
      // Functions, so a '$' in the page (prices) is never read as a replacement pattern.
      .replace('<!--app-head-->', () => page.head)
      .replace('<!--app-html-->', () => page.html);
    const file = join(nextDir, page.file);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
  }
  writeFileSync(join(nextDir, 'index.html'), template.replace('<!--app-html-->', () => appShellPlaceholder()));
  rmSync(ssrDir, { recursive: true, force: true });
  precompress(nextDir);
  keepPreviousAssets(webDir, nextDir);
  rmSync(oldDir, { recursive: true, force: true });
  if (existsSync(webDir)) renameSync(webDir, oldDir);
  renameSync(nextDir, webDir);
  rmSync(oldDir, { recursive: true, force: true });
  writeFileSync(join(root, STAMP_FILE), inputFingerprint(root));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildAll();
}
