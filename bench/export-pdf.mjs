#!/usr/bin/env node
// Export of a ten-year journal (3,650 entries) to PDF through GET /api/export?format=pdf, read as a
// stream over HTTP as a browser would: seconds to the first byte and to the last, the PDF's size,
// and the process's peak memory (RSS, sampled every 20 ms; PDF workers are threads of this process)
// beside its memory before the export. Beside it, the same journal as plain text, in the same run.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { register } from 'tsx/esm/api';

const ENTRIES = Number(process.env.ENTRIES ?? 3650);
register();
const { loadConfig } = await import('../src/server/config.ts');
const { buildApp } = await import('../src/server/app.ts');
const { seedJournal } = await import('./seed-journal.ts');
const { pdfWorkers } = await import('../src/server/export/pdf-worker/pool.ts');

const dataDir = mkdtempSync(join(tmpdir(), 'jotline-bench-'));
const env = { NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: `sqlite:${join(dataDir, 'bench.db')}`, MASTER_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: 'silent', JOBS: 'off' };
const app = await buildApp(loadConfig(env), { serveWeb: false });
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

async function download(url, token) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  let firstByte = null;
  let bytes = 0;
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    for await (const chunk of res.body) {
      firstByte ??= performance.now() - started;
      bytes += chunk.length;
    }
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { seconds: (performance.now() - started) / 1000, firstByte: firstByte / 1000, bytes, before, peak };
}

try {
  const started = performance.now();
  // One user per export: each has its own export allowance.
  const [pdfUser, textUser, smallUser] = [await seedJournal(app, ENTRIES), await seedJournal(app, ENTRIES), await seedJournal(app, 10)];
  console.log(`Two journals of ${ENTRIES.toLocaleString('en-US')} entries written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  const rows = [
    // The first PDF starts a worker thread (its module loader and fonts); this one shows that cost.
    ['PDF, 10 entries (first PDF: starts a worker)', await download(`${base}/api/export?format=pdf`, smallUser.token)],
    [`PDF, ${ENTRIES.toLocaleString('en-US')} entries (no photos embedded)`, await download(`${base}/api/export?format=pdf`, pdfUser.token)],
    [`plain text, ${ENTRIES.toLocaleString('en-US')} entries`, await download(`${base}/api/export?format=txt`, textUser.token)],
  ];
  console.log(`\n${'export'.padEnd(44)}${'s total'.padStart(9)}${'s 1st byte'.padStart(12)}${'MB out'.padStart(8)}${'RSS before'.padStart(12)}${'RSS peak'.padStart(10)}`);
  for (const [name, r] of rows) {
    console.log(`${name.padEnd(44)}${r.seconds.toFixed(2).padStart(9)}${r.firstByte.toFixed(2).padStart(12)}${mb(r.bytes).padStart(8)}${mb(r.before).padStart(12)}${mb(r.peak).padStart(10)}`);
  }
  console.log('\n  RSS in MB, the whole process (server, journal cache and PDF worker threads).');
} finally {
  await app.close();
  await pdfWorkers.close(); // an idle worker would otherwise keep the process a minute longer
  rmSync(dataDir, { recursive: true, force: true });
}
