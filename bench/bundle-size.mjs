#!/usr/bin/env node
// Initial JavaScript per page, gzip-compressed, from the Vite manifest of the last build (`npm run build`).
// A page's initial JS is the entry chunk, the route chunks it loads before its first screen, and
// every chunk those import statically. Exits non-zero when a page is over its budget, or when a
// library's development build is in any of them.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const webDir = resolve(import.meta.dirname, '../dist/web');
const manifestPath = join(webDir, '.vite/manifest.json');
const KB = 1000;

/**
 * Each page: the HTML the server sends for it, and the route modules it loads before its first screen
 * (see src/web/router.tsx). The public pages are pre-rendered without the app (src/web/prerender.tsx).
 */
const APP_SHELL = ['src/web/app-shell/AppProviders.tsx'];
const pages = [
  { page: '/ (landing)', html: 'prerendered/index.html', modules: [], budgetKb: 80 },
  { page: '/privacy', html: 'prerendered/privacy.html', modules: [], budgetKb: 80 },
  { page: '404', html: 'prerendered/404.html', modules: [], budgetKb: 80 },
  { page: '/sign-up', html: 'prerendered/sign-up.html', modules: [...APP_SHELL, 'src/web/pages/sign-up/SignUpPage.tsx'], budgetKb: 200 },
  { page: '/journal', html: 'index.html', modules: [...APP_SHELL, 'src/web/pages/journal/JournalPage.tsx'], budgetKb: 200 },
];

if (!existsSync(manifestPath)) {
  console.error(`No Vite manifest at ${manifestPath}: run \`npm run build\` first.`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));

/** The scripts an HTML page loads at once: module scripts and module preloads. */
function scriptsOf(htmlFile) {
  const html = readFileSync(join(webDir, htmlFile), 'utf8');
  const srcs = [...html.matchAll(/<script[^>]*type="module"[^>]*src="\/([^"]+)"/g), ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+)"/g)];
  return srcs.map((match) => {
    const key = keyOfFile.get(match[1]);
    if (!key) throw new Error(`${htmlFile} loads ${match[1]}, which the manifest does not name.`);
    return key;
  });
}

const gzipCache = new Map();
function gzipBytes(file) {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(webDir, file)), { level: 9 }).length;
    gzipCache.set(file, size);
  }
  return size;
}

/** Every JS file a module needs before it runs: its own chunk and its static imports, transitively. */
function closure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the manifest: has it moved? Update bench/bundle-size.mjs.`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, files);
  return files;
}

/**
 * Libraries' development builds (warnings on, larger) have no place in the bundle: React Router's
 * package points at its own unless vite.config.ts says otherwise. Read from the source maps.
 */
function developmentBuildsIn(files) {
  const found = new Set();
  for (const file of files) {
    const mapPath = join(webDir, `${file}.map`);
    if (!file.endsWith('.js') || !existsSync(mapPath)) continue;
    for (const source of JSON.parse(readFileSync(mapPath, 'utf8')).sources ?? []) {
      if (/node_modules\/.+(\/development\/|\.development\.)/.test(source)) found.add(source.replace(/^.*node_modules\//, ''));
    }
  }
  return [...found];
}

let over = 0;
const rows = [];
const allFiles = new Set();
for (const { page, html, modules, budgetKb } of pages) {
  const files = new Set();
  for (const key of [...scriptsOf(html), ...modules]) closure(key, files);
  for (const file of files) allFiles.add(file);
  const bytes = [...files].filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gzipBytes(f), 0);
  const ok = bytes <= budgetKb * KB;
  if (!ok) over += 1;
  rows.push({ page, 'initial JS (gzip)': `${(bytes / KB).toFixed(1)} KB`, budget: `${budgetKb} KB`, files: files.size, result: ok ? 'ok' : 'OVER' });
}
console.table(rows);
const development = developmentBuildsIn(allFiles);
if (development.length > 0) {
  console.error(`Development builds in the pages' JavaScript: ${development.join(', ')}`);
  process.exit(1);
}
if (over > 0) {
  console.error(`${over} page(s) over the JavaScript budget.`);
  process.exit(1);
}
console.log('Every page is within its JavaScript budget.');
