#!/usr/bin/env node
// Imports as background jobs, measured while other requests go on: the largest text import allowed
// (a jrnl journal just under 20 MB, ~120,000 entries) and a ten-year Day One ZIP with 1,000 photos
// (3,650 entries, within the 100 MB upload limit). The app runs in a child process; this one uploads
// the file, follows GET /api/imports/:id to the end, and meanwhile asks another user's first page at
// a steady rate (autocannon), beside the same load with no import running, on SQLite and PostgreSQL.
// Figures: upload and import time, entries a second, the app's peak memory (RSS, all its threads),
// and the other requests' p50 and p99. The inputs are generated here with a fixed seed.
import { readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { appModule, benchDatabases, benchEnv, child as forkChild, loadApp, postgresDatabase, quantile, serveApp } from './support.mjs';

/** Requests a second from other users while an import runs, over this many connections. */
const RATE = Number(process.env.BENCH_RATE ?? 100);
const CONNECTIONS = 10;
const BASELINE_S = Number(process.env.BENCH_SECONDS ?? 8);
const TEXT_BYTES = Number(process.env.BENCH_TEXT_MB ?? 19.5) * 1024 * 1024;
const DAYS = 3650;
const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 1000);

/** mulberry32: the same inputs every run. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'morning coffee walk river dog park rain sunshine work meeting friend dinner book garden tired happy quiet city train music kitchen bread letter weekend market bicycle hill window evening tea office lunch project ocean beach forest mountain snow spring summer autumn winter trip'.split(' ');
const sentence = (next, words) => Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
const dayOf = (i) => new Date(Date.UTC(2014, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);

/** A jrnl journal of about `bytes`: an entry every few hours, a title line, a body, a tag now and then. */
function jrnlJournal(bytes) {
  const next = random(25);
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const at = new Date(Date.UTC(1990, 0, 1) + i * 4 * 3_600_000).toISOString();
    const entry = `[${at.slice(0, 10)} ${at.slice(11, 16)}] ${sentence(next, 6)}.\n${sentence(next, 14 + Math.floor(next() * 10))}${next() < 0.2 ? ' @work' : ''}\n\n`;
    if (size + entry.length > bytes) break;
    parts.push(entry);
    size += entry.length;
  }
  return { file: Buffer.from(parts.join('')), entries: parts.length };
}

/** Ten years of Day One: an entry a day, 1,000 of them with a photo (1024×768 JPEG, about 90 KB). */
async function dayOneZip() {
  const { default: sharp } = await import('sharp');
  const { default: yazl } = await import('yazl');
  const { createHash } = await import('node:crypto');
  const next = random(7);
  const entries = [];
  const pictured = [];
  for (let i = 0; i < DAYS; i++) {
    entries.push({
      uuid: createHash('md5').update(`entry-${i}`).digest('hex').toUpperCase(),
      creationDate: `${dayOf(i)}T${String(6 + Math.floor(next() * 16)).padStart(2, '0')}:${String(Math.floor(next() * 60)).padStart(2, '0')}:00Z`,
      timeZone: next() < 0.8 ? 'America/Chicago' : 'Australia/Brisbane',
      starred: next() < 0.05,
      text: `# ${sentence(next, 5)}\n\n${sentence(next, 40 + Math.floor(next() * 80))}\\.`,
      tags: next() < 0.3 ? ['travel'] : [],
    });
    if (pictured.length < PHOTOS && i >= pictured.length * (DAYS / PHOTOS)) {
      // Smooth pixels (a small random picture scaled up) compress like a photo, not like noise.
      const small = Buffer.alloc(64 * 48 * 3);
      for (let b = 0; b < small.length; b++) small[b] = Math.floor(next() * 256);
      pictured.push({ entry: entries.at(-1), small });
    }
  }
  const zip = new yazl.ZipFile();
  for (let i = 0; i < pictured.length; i += 8) {
    const jpegs = await Promise.all(pictured.slice(i, i + 8).map(({ small }) => sharp(small, { raw: { width: 64, height: 48, channels: 3 } }).resize(1024, 768, { kernel: 'cubic' }).jpeg({ quality: 70 }).toBuffer()));
    for (const [j, jpeg] of jpegs.entries()) {
      const md5 = createHash('md5').update(jpeg).digest('hex');
      const identifier = md5.toUpperCase();
      const { entry } = pictured[i + j];
      entry.text += `\n\n![](dayone-moment://${identifier})`;
      entry.photos = [{ identifier, md5, type: 'jpeg', orderInEntry: 0, width: 1024, height: 768 }];
      zip.addBuffer(jpeg, `photos/${md5}.jpeg`, { compress: false });
    }
  }
  zip.addBuffer(Buffer.from(JSON.stringify({ metadata: { version: '1.0' }, entries }, null, 2)), 'Journal.json');
  zip.end();
  const chunks = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk);
  return { file: Buffer.concat(chunks), entries: DAYS, photos: pictured.length };
}

/** The app's resident memory now (all its threads), in bytes. */
function rssOf(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) * 1024;
}

/** Another user's first page at a steady rate until `until` settles; answers p50 and p99 in ms. */
async function otherRequests(url, token, until) {
  const { default: autocannon } = await import('autocannon');
  const times = [];
  let errors = 0;
  const run = autocannon({ url: `${url}/api/entries`, headers: { authorization: `Bearer ${token}` }, connections: CONNECTIONS, overallRate: RATE, duration: 3600 });
  run.on('response', (_client, status, _bytes, ms) => (status < 300 ? times.push(ms) : errors++));
  await until;
  run.stop();
  await run;
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), max: times.at(-1), count: times.length, errors };
}

/** Uploads the file, follows the import to its end (sampling the app's memory); answers the times. */
async function runImport(app, token, file, name) {
  const headers = { authorization: `Bearer ${token}` };
  const before = rssOf(app.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(app.pid))), 50);
  const started = performance.now();
  try {
    const form = new FormData();
    form.append('file', new Blob([file]), name);
    const res = await fetch(`${app.url}/api/import`, { method: 'POST', headers, body: form });
    if (res.status !== 202) throw new Error(`POST /api/import: ${res.status} ${await res.text()}`);
    const { import_id: id } = await res.json();
    const uploaded = performance.now();
    for (;;) {
      const status = await (await fetch(`${app.url}/api/imports/${id}`, { headers })).json();
      if (status.status === 'done' || status.status === 'failed') {
        if (status.status === 'failed') throw new Error(`the import failed: ${status.error}`);
        return { uploadS: (uploaded - started) / 1000, importS: (performance.now() - uploaded) / 1000, status, before, peak };
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    clearInterval(sampler);
  }
}

async function measureOn(kind, dbUrl, inputs) {
  const { env, dataDir } = benchEnv(dbUrl ? { DATABASE_URL: dbUrl } : {});
  const seeding = await loadApp(env);
  const { seedJournal } = await appModule('bench/seed-journal.ts');
  const { buildUser, signIn } = await appModule('src/server/test/factories.ts');
  const reader = await seedJournal(seeding, DAYS);
  const importers = [];
  for (let i = 0; i < inputs.length; i++) importers.push(await signIn({ app: seeding }, await buildUser({ app: seeding }, { timezone: 'America/Chicago' })));
  await seeding.close();

  const app = await forkChild(import.meta.filename, 'app', env);
  const rows = [];
  try {
    // Warm: the reader's journal in memory, the routes compiled.
    for (let i = 0; i < 20; i++) await (await fetch(`${app.url}/api/entries`, { headers: { authorization: `Bearer ${reader.token}` } })).text();
    const idle = await otherRequests(app.url, reader.token, new Promise((resolve) => setTimeout(resolve, BASELINE_S * 1000)));
    rows.push({ label: `${kind}: no import running`, other: idle });
    for (const [i, input] of inputs.entries()) {
      let result;
      const other = await otherRequests(app.url, reader.token, (async () => (result = await runImport(app, importers[i], input.file, input.name)))());
      rows.push({ label: `${kind}: ${input.label}`, other, result, input });
    }
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

async function main() {
  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
  const generated = performance.now();
  const text = jrnlJournal(TEXT_BYTES);
  const zip = await dayOneZip();
  const inputs = [
    { label: `jrnl, ${mb(text.file.length)} MB, ${text.entries.toLocaleString('en-US')} entries`, name: 'journal.txt', ...text, photos: 0 },
    { label: `Day One ZIP, ${mb(zip.file.length)} MB, ${zip.entries.toLocaleString('en-US')} entries, ${zip.photos.toLocaleString('en-US')} photos`, name: 'Journal.zip', ...zip },
  ];
  console.log(`Inputs generated in ${((performance.now() - generated) / 1000).toFixed(1)} s (fixed seed)`);
  console.log(`Other requests: GET /api/entries (another user's first page, 3,650 entries) at ${RATE}/s over ${CONNECTIONS} connections\n`);

  // The load generator's own share: the same steady requests to bare node:http answering fixed JSON.
  const bare = await forkChild(import.meta.filename, 'baseline', {});
  const rows = [];
  try {
    rows.push({ label: 'bare node:http, fixed JSON (no app, no import)', other: await otherRequests(bare.url, '', new Promise((resolve) => setTimeout(resolve, BASELINE_S * 1000))) });
  } finally {
    await bare.stop();
  }
  for (const kind of benchDatabases) {
    if (kind === 'sqlite') rows.push(...(await measureOn('SQLite', null, inputs)));
    if (kind === 'postgres') {
      const pg = await postgresDatabase('import');
      if (pg.skipped) {
        console.log(`PostgreSQL skipped: ${pg.skipped}`);
        continue;
      }
      try {
        rows.push(...(await measureOn('PostgreSQL', pg.url, inputs)));
      } finally {
        await pg.drop();
      }
    }
  }

  const ms = (n) => (n === undefined ? '' : n.toFixed(1));
  console.log(`${'scenario'.padEnd(70)}${'upload s'.padStart(9)}${'import s'.padStart(9)}${'entries/s'.padStart(10)}${'RSS MB'.padStart(14)}${'other p50'.padStart(10)}${'p99'.padStart(7)}${'max'.padStart(7)}`);
  for (const { label, other, result, input } of rows) {
    const rss = result ? `${mb(result.before)}→${mb(result.peak)}` : '';
    const rate = result ? Math.round(input.entries / result.importS).toLocaleString('en-US') : '';
    console.log(
      `${label.padEnd(70)}${(result ? result.uploadS.toFixed(1) : '').padStart(9)}${(result ? result.importS.toFixed(1) : '').padStart(9)}${rate.padStart(10)}${rss.padStart(14)}${ms(other.p50).padStart(10)}${ms(other.p99).padStart(7)}${ms(other.max).padStart(7)}`,
    );
    if (other.errors) console.log(`  ${other.errors} other requests failed`);
    if (result) {
      const s = result.status;
      console.log(`  imported ${s.imported.toLocaleString('en-US')} of ${s.total.toLocaleString('en-US')} entries, ${s.photos_imported} photos (${s.photos_skipped} left out); ${other.count.toLocaleString('en-US')} other requests meanwhile`);
    }
  }
  console.log('\n  RSS: the app process (server, reader and worker threads) before the upload → its peak during the import.');
  console.log('  other p50/p99/max: ms per answer of the steady other requests over the whole import (upload included).');
}

if (process.argv[2] === 'app') await serveApp(JSON.parse(process.argv[3]));
else if (process.argv[2] === 'baseline') {
  const { createServer } = await import('node:http');
  const { listening } = await import('./support.mjs');
  const port = await listening(createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"entries":[],"nextCursor":null}')));
  process.once('SIGINT', () => process.exit(0));
  process.send({ port });
} else await main();
