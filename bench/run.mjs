#!/usr/bin/env node
// `npm run bench`: how fast the journal answers for a ten-year journal (3,650 entries), next to a
// bare node:http server answering a fixed JSON body on the same machine in the same run.
// The app and the baseline each run in their own process; autocannon drives them from this one.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchEnv, child as forkChild, cpuSecondsOf, listening, loadApp, medianOf, serveApp } from './support.mjs';

const ENTRIES = 3650;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
// Each scenario first runs this long unmeasured, so JIT and caches are warm for every one alike.
const WARMUP_S = Math.min(1, DURATION_S);
// The scenarios run in turn, this many rounds, and each figure is the median of its rounds: on a
// shared machine throughput drifts over a minute (the baseline by half between runs), and a
// baseline measured once, a minute before the app, made the ratios drift with it.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const role = process.argv[2];

if (role === 'baseline') {
  // The fixed body, or (second baseline) the app's own first page read from a file: the same bytes to
  // send, so the two rows show how much of the gap is only the size of the answer.
  const { BODY_FILE } = JSON.parse(process.argv[3] ?? '{}');
  const body = BODY_FILE ? readFileSync(BODY_FILE) : JSON.stringify({ entries: [], nextCursor: null });
  const port = await listening(createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body)));
  process.send({ port });
} else if (role === 'app') {
  // Only the bench's own settings: a developer's environment must not change what is measured.
  await serveApp(JSON.parse(process.argv[3]));
} else {
  await main();
}

function child(name, env) {
  return forkChild(import.meta.filename, name, env);
}

/**
 * Throughput and latency against `server`, and the server's CPU time per answer: on a machine
 * shared with other work, req/s moves with the neighbours, CPU per answer much less.
 */
async function measure(server, path = '', headers = {}) {
  const url = `${server.url}${path}`;
  const { default: autocannon } = await import('autocannon');
  await autocannon({ url, headers, connections: CONNECTIONS, duration: WARMUP_S });
  // autocannon's own percentiles are whole milliseconds; each response's time is finer.
  const times = [];
  const cpuBefore = cpuSecondsOf(server.pid);
  const run = autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  run.on('response', (_client, status, _bytes, ms) => status < 300 && times.push(ms));
  const result = await run;
  const cpuAfter = cpuSecondsOf(server.pid);
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  times.sort((a, b) => a - b);
  const percentile = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  const cpuUs = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total;
  return { p50: percentile(0.5), p99: percentile(0.99), rps: result.requests.average, cpuUs };
}

async function timeIt(times, fn) {
  const started = performance.now();
  for (let i = 0; i < times; i++) await fn();
  return (performance.now() - started) / times;
}

async function main() {
  const { dataDir, env } = benchEnv();
  const servers = [];
  try {
    console.log(`Writing a journal of ${ENTRIES} entries…`);
    const app = await loadApp(env);
    const { seedJournal } = await import('./seed-journal.ts');
    const { userId, token, rareWord } = await seedJournal(app, ENTRIES);

    // The search approach in isolation: decrypting the whole journal (what every search would cost
    // without the in-memory copy) against filtering the copy already in memory.
    const { JournalCache } = await import('../src/server/journal/cache.ts');
    const { pageOfEntries, searchableText } = await import('../src/server/journal/search.ts');
    const { entryFilterSchema } = await import('../src/shared/journal.ts');
    const budget = app.ctx.config.searchCacheBytes;
    const coldMs = await timeIt(5, () => new JournalCache(() => app.ctx, budget).entries(userId));
    const warm = new JournalCache(() => app.ctx, budget);
    const entries = await warm.entries(userId);
    const filter = entryFilterSchema.parse({ q: rareWord });
    const filterMs = await timeIt(200, () => pageOfEntries(entries, filter));
    const rebuildMs = await timeIt(50, () => pageOfEntries(entries.slice(), filter));
    const texts = entries.map(searchableText);
    const perEntryMs = await timeIt(200, () => texts.filter((text) => text.includes(rareWord)));
    const warmMs = await timeIt(200, async () => pageOfEntries(await warm.entries(userId), filter));
    await app.close();

    servers.push(await child('baseline'), await child('app', env));
    const [baseline, api] = servers;
    const auth = { authorization: `Bearer ${token}` };
    // The first request loads the journal into memory.
    const firstPage = await (await fetch(`${api.url}/api/entries`, { headers: auth })).text();
    const bodyFile = join(dataDir, 'first-page.json');
    writeFileSync(bodyFile, firstPage);
    const samePage = await child('baseline', { BODY_FILE: bodyFile });
    servers.push(samePage);
    const scenarios = [
      ['bare node:http, fixed JSON', () => measure(baseline)],
      [`bare node:http, the first page (${(firstPage.length / 1024).toFixed(1)} KB)`, () => measure(samePage)],
      ['GET /api/entries (first page)', () => measure(api, '/api/entries', auth)],
      ['GET /api/entries (first page, br as browsers ask)', () => measure(api, '/api/entries', { ...auth, 'accept-encoding': 'gzip, deflate, br' })],
      [`GET /api/entries?q=${rareWord} (scans all)`, () => measure(api, `/api/entries?q=${rareWord}`, auth)],
      ['GET /api/entries?q=walk&tags=work&from=…', () => measure(api, '/api/entries?q=walk&tags=work&from=2020-01-01&source=web', auth)],
    ];
    const runs = scenarios.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, run]] of scenarios.entries()) runs[i].push(await run());
    }
    const rows = scenarios.map(([name], i) => [name, medianOf(runs[i])]);

    const base = rows[0][1];
    const NAME_WIDTH = Math.max(...rows.map(([name]) => name.length)) + 2;
    console.log(`\n${ENTRIES} entries · ${CONNECTIONS} connections · ${DURATION_S} s each (after ${WARMUP_S} s warm-up) · medians of ${ROUNDS} rounds, the scenarios in turn\n`);
    console.log(
      `${'scenario'.padEnd(NAME_WIDTH)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'req/s'.padStart(9)}` +
        `${'p50 ×bare'.padStart(11)}${'p99 ×bare'.padStart(11)}${'req/s ÷bare'.padStart(13)}${'CPU µs/req'.padStart(12)}${'bare ÷CPU'.padStart(11)}`,
    );
    const perRequest = (r) => (r.cpuUs === null ? 'n/a' : r.cpuUs.toFixed(1));
    // The share of bare's throughput the scenario would reach if the server's CPU were all that limited it.
    const cpuShare = (r) => (r.cpuUs === null || base.cpuUs === null ? 'n/a' : (base.cpuUs / r.cpuUs).toFixed(3));
    for (const [name, r] of rows) {
      console.log(
        `${name.padEnd(NAME_WIDTH)}${r.p50.toFixed(2).padStart(8)}${r.p99.toFixed(2).padStart(8)}${r.rps.toFixed(0).padStart(9)}` +
          `${(r.p50 / base.p50).toFixed(1).padStart(11)}${(r.p99 / base.p99).toFixed(1).padStart(11)}${(r.rps / base.rps).toFixed(3).padStart(13)}` +
          `${perRequest(r).padStart(12)}${cpuShare(r).padStart(11)}`,
      );
    }
    console.log('\nSearch over the in-memory journal (in process):');
    console.log(`  decrypt and index all ${ENTRIES} entries (cold, once per change elsewhere): ${coldMs.toFixed(1)} ms`);
    console.log(`  search the copy in memory for "${rareWord}" (one folded string per entry):   ${filterMs.toFixed(2)} ms`);
    console.log(`  the same with the revision check (one indexed lookup):                    ${warmMs.toFixed(2)} ms`);
    console.log(`  the same over a copy of the list (slice, then search):                    ${rebuildMs.toFixed(2)} ms`);
    console.log(`  for comparison, testing entry by entry (String.includes per entry):       ${perEntryMs.toFixed(2)} ms`);
  } finally {
    for (const s of servers) s.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
