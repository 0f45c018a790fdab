#!/usr/bin/env node
// `node bench/compression.mjs`: what each brotli quality and gzip level costs, in CPU and bytes, on
// the journal's first page of a 3,650-entry journal (the answer every browser asks for with
// `Accept-Encoding: br`), compressed in one call as the app does for answers up to 64 KB. The app's
// levels (src/server/compression/index.ts) are chosen from this table.
import { rmSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { appModule, benchEnv, loadApp } from './support.mjs';

const ROUNDS = 11;
const TIMES = 200;

const { dataDir, env } = benchEnv();
let page;
try {
  const app = await loadApp(env);
  try {
    const { seedJournal } = await appModule('bench/seed-journal.ts');
    const { token } = await seedJournal(app, 3650);
    page = (await app.inject({ url: '/api/entries', headers: { authorization: `Bearer ${token}` } })).rawPayload;
  } finally {
    await app.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const brotli = (quality) => () =>
  brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: page.length } });
const gzip = (level) => () => gzipSync(page, { level });
const codecs = [
  ...[1, 2, 3, 4, 5, 6, 11].map((q) => [`brotli quality ${q}`, brotli(q)]),
  ...[1, 4, 6, 9].map((l) => [`gzip level ${l}`, gzip(l)]),
];

// CPU microseconds (this process, user and system) a call, in ROUNDS rounds taken in turn: the least of
// them, the round least disturbed by other work on a shared machine.
const rounds = codecs.map(() => []);
for (const [, run] of codecs) for (let i = 0; i < 50; i++) run();
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, [, run]] of codecs.entries()) {
    const before = process.cpuUsage();
    for (let n = 0; n < TIMES; n++) run();
    const used = process.cpuUsage(before);
    rounds[i].push((used.user + used.system) / TIMES);
  }
}
console.log(`The first page, ${page.length} bytes of JSON; CPU µs a compression (the least of ${ROUNDS} rounds of ${TIMES}, in one call each):\n`);
console.log(`${'codec'.padEnd(20)}${'CPU µs'.padStart(8)}${'bytes'.padStart(8)}${'of raw'.padStart(8)}`);
for (const [i, [name, run]] of codecs.entries()) {
  const bytes = run().length;
  console.log(`${name.padEnd(20)}${Math.min(...rounds[i]).toFixed(0).padStart(8)}${String(bytes).padStart(8)}${(bytes / page.length).toFixed(3).padStart(8)}`);
}
