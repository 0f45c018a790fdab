#!/usr/bin/env node
// `npm run bench`: how fast the journal answers for a ten-year journal (3,650 entries), next to a
// bare node:http server answering a fixed JSON body on the same machine in the same run: on SQLite,
// on PostgreSQL, and on PostgreSQL with three instances behind one port (bench/proxy.mjs). The apps,
// the baselines and the proxy each run in their own process; autocannon drives them from this one.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { countStatements } from './statements.mjs';
import { appModule, appRoot, beforeTree, benchDatabases, benchDb, benchEnv, child as forkChild, cpuMeter, cpuSecondsOfAll, listening, loadApp, medianOf, postgresBackendPids, postgresDatabase, quantile, serveApp } from './support.mjs';

const ENTRIES = 3650;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 4);
// Each scenario first runs this long unmeasured, so JIT and caches are warm for every one alike.
const WARMUP_S = Math.min(1, DURATION_S);
// The scenarios run in turn, this many rounds, and each figure is the median of its rounds: on a
// shared machine throughput drifts over a minute (the baseline by half between runs), and a
// baseline measured once, a minute before the app, made the ratios drift with it.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const INSTANCES = 3;
const proxyScript = join(import.meta.dirname, 'proxy.mjs');
const role = process.argv[2];

if (role === 'baseline') {
  // The fixed body, or (second baseline) the app's own first page read from a file: the same bytes to
  // send, so the two rows show how much of the gap is only the size of the answer.
  const { BODY_FILE } = JSON.parse(process.argv[3] ?? '{}');
  const body = BODY_FILE ? readFileSync(BODY_FILE) : JSON.stringify({ entries: [], nextCursor: null });
  const port = await listening(createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body)));
  process.send({ port });
} else if (role === 'fastify') {
  // Fastify itself, no hook or plugin of ours, answering the same page object: what of the
  // framework's floor is Fastify and JSON.stringify, and what is the app's own hooks.
  const { BODY_FILE } = JSON.parse(process.argv[3]);
  const page = JSON.parse(readFileSync(BODY_FILE, 'utf8'));
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/api/bench-floor', async () => page);
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.once('SIGINT', () => process.exit(0));
  process.send({ port: app.server.address().port });
} else if (role === 'app') {
  await serveApp(JSON.parse(process.argv[3]));
} else if (role === 'floor') {
  // The whole app (its hooks, compression, headers, metrics, serialisation) answering one more route
  // with the first page already built: what any answer of that size costs before the journal's code.
  const { BODY_FILE, ...env } = JSON.parse(process.argv[3]);
  const page = JSON.parse(readFileSync(BODY_FILE, 'utf8'));
  const app = await loadApp(env);
  app.get('/api/bench-floor', async () => page);
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.once('SIGINT', () => process.exit(0));
  process.send({ port: app.server.address().port });
} else {
  await main();
}

function child(name, env, root) {
  return forkChild(import.meta.filename, name, env, root);
}

/**
 * Throughput and latency through `url`, and the CPU time per answer of the processes serving it
 * (`pids`) and of the database's backends (`dbPids()`, PostgreSQL, read once the warm-up has opened
 * the pools' connections): on a machine shared with other work, req/s moves with the neighbours,
 * CPU per answer much less.
 */
async function measure({ url, pids, dbPids }, path = '', headers = {}) {
  const { default: autocannon } = await import('autocannon');
  await autocannon({ url: `${url}${path}`, headers, connections: CONNECTIONS, duration: WARMUP_S });
  // autocannon's own percentiles are whole milliseconds; each response's time is finer.
  const times = [];
  const dbCpu = dbPids ? cpuMeter(await dbPids()) : null;
  const appBefore = cpuSecondsOfAll(pids);
  const run = autocannon({ url: `${url}${path}`, headers, connections: CONNECTIONS, duration: DURATION_S });
  run.on('response', (_client, status, _bytes, ms) => status < 300 && times.push(ms));
  const result = await run;
  const appAfter = cpuSecondsOfAll(pids);
  const dbSeconds = dbCpu?.stop() ?? 0;
  if (result.non2xx || result.errors) throw new Error(`${url}${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  times.sort((a, b) => a - b);
  const total = result.requests.total;
  return {
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    rps: result.requests.average,
    cpuUs: appBefore === null || appAfter === null ? null : ((appAfter - appBefore) * 1e6) / total,
    dbUs: (dbSeconds * 1e6) / total,
  };
}

/** The body's bytes as sent (compressed, not decoded as fetch would). */
function bytesOnTheWire(url, headers) {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
    }).on('error', reject);
  });
}

async function timeIt(times, fn) {
  const started = performance.now();
  for (let i = 0; i < times; i++) await fn();
  return (performance.now() - started) / times;
}

/**
 * Writes the journal through an app in this process, and measures there what needs no HTTP: the
 * cold load, the search over the copy in memory, and the statements each request runs.
 */
async function seedAndProbe(env, kind, root) {
  const app = await loadApp(env, root);
  try {
    const { seedJournal } = await appModule('bench/seed-journal.ts', root);
    const seeded = await seedJournal(app, ENTRIES);
    const { JournalCache } = await appModule('src/server/journal/cache.ts', root);
    const { pageOfEntries } = await appModule('src/server/journal/search.ts', root);
    const { entryFilterSchema } = await appModule('src/shared/journal.ts', root);
    const budget = app.ctx.config.searchCacheBytes;
    const coldMs = await timeIt(3, () => new JournalCache(() => app.ctx, budget).entries(seeded.userId));
    const warm = new JournalCache(() => app.ctx, budget);
    const entries = await warm.entries(seeded.userId);
    const filter = entryFilterSchema.parse({ q: seeded.rareWord });
    const { searchableText } = await appModule('src/server/journal/search.ts', root);
    const texts = entries.map(searchableText);
    const inMemory = {
      coldMs,
      filterMs: await timeIt(200, () => pageOfEntries(entries, filter)),
      warmMs: await timeIt(200, async () => pageOfEntries(await warm.entries(seeded.userId), filter)),
      perEntryMs: await timeIt(200, () => texts.filter((text) => text.includes(seeded.rareWord))),
    };
    const headers = { authorization: `Bearer ${seeded.token}` };
    await app.inject({ url: '/api/entries', headers }); // loads the journal
    const statements = {};
    for (const [label, url] of [['first page', '/api/entries'], ['search', `/api/entries?q=${seeded.rareWord}`]]) {
      statements[label] = (await countStatements(kind, () => app.inject({ url, headers }))).count;
    }
    return { ...seeded, inMemory, statements };
  } finally {
    await app.close();
  }
}

async function main() {
  const servers = [];
  const cleanups = [];
  const configs = [];
  const notes = [];
  try {
    console.log(`Writing a journal of ${ENTRIES} entries on ${benchDatabases.join(' and ')}…`);
    const before = beforeTree();
    for (const tree of [{ root: appRoot, label: '' }, ...(before ? [{ ...before, label: `, ${before.label}` }] : [])]) {
      if (benchDatabases.includes('sqlite')) {
        const { dataDir, env } = benchEnv();
        cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
        const seeded = await seedAndProbe(env, 'sqlite', tree.root);
        const api = await child('app', env, tree.root);
        servers.push(api);
        configs.push({ label: `SQLite${tree.label}`, seeded, target: { url: api.url, pids: [api.pid] }, extra: !tree.label, root: tree.root });
      }
      if (benchDatabases.includes('postgres')) {
        const pg = await postgresDatabase(tree.label ? 'journal_before' : 'journal');
        if (pg.skipped) {
          notes.push(`PostgreSQL figures skipped: ${pg.skipped}`);
          continue;
        }
        cleanups.push(() => pg.drop());
        const { dataDir, env } = benchEnv({ DATABASE_URL: pg.url });
        cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
        const seeded = await seedAndProbe(env, 'postgres', tree.root);
        // The tree before is measured on one instance only.
        const instances = [];
        for (let i = 0; i < (tree.label ? 1 : INSTANCES); i++) instances.push(await child('app', env, tree.root));
        servers.push(...instances);
        const db = await benchDb(pg.url);
        cleanups.push(() => db.destroy());
        const dbPids = () => postgresBackendPids(db);
        configs.push({ label: `PostgreSQL${tree.label}`, seeded, target: { url: instances[0].url, pids: [instances[0].pid], dbPids } });
        if (instances.length > 1) {
          const proxy = await forkChild(proxyScript, 'proxy', { ports: instances.map((s) => s.port) });
          servers.push(proxy);
          configs.push({ label: `PostgreSQL, ${INSTANCES} instances behind the proxy`, seeded, target: { url: proxy.url, pids: [...instances.map((s) => s.pid), proxy.pid], dbPids } });
        }
      }
    }
    if (!configs.length) throw new Error('no database to measure on');

    const baseline = await child('baseline');
    servers.push(baseline);
    const auth = (config) => ({ authorization: `Bearer ${config.seeded.token}` });
    // Each instance loads the journal on its first request; the proxy sends every connection to the next one.
    for (const config of configs) for (let i = 0; i < INSTANCES * 2; i++) await (await fetch(`${config.target.url}/api/entries`, { headers: auth(config) })).text();
    const firstPage = await (await fetch(`${configs[0].target.url}/api/entries`, { headers: auth(configs[0]) })).text();
    const bodyFile = join(tmpdir(), `jotline-bench-first-page-${process.pid}.json`);
    writeFileSync(bodyFile, firstPage);
    cleanups.push(() => rmSync(bodyFile, { force: true }));
    const samePage = await child('baseline', { BODY_FILE: bodyFile });
    const fastify = await child('fastify', { BODY_FILE: bodyFile });
    servers.push(samePage, fastify);

    const bare = { url: baseline.url, pids: [baseline.pid] };
    const scenarios = [
      ['bare node:http, fixed JSON', () => measure(bare)],
      [`bare node:http, the first page (${(firstPage.length / 1024).toFixed(1)} KB)`, () => measure({ url: samePage.url, pids: [samePage.pid] })],
      ['bare Fastify, the first page built (JSON.stringify)', () => measure({ url: fastify.url, pids: [fastify.pid] }, '/api/bench-floor')],
    ];
    // The app's framework with the first page built, of this tree and of the tree before.
    for (const tree of [{ root: appRoot, label: '' }, ...(before ? [{ ...before, label: `, ${before.label}` }] : [])]) {
      const floorEnv = benchEnv();
      cleanups.push(() => rmSync(floorEnv.dataDir, { recursive: true, force: true }));
      const floor = await child('floor', { ...floorEnv.env, BODY_FILE: bodyFile }, tree.root);
      servers.push(floor);
      scenarios.push([`the app's framework alone${tree.label}, the first page built`, () => measure({ url: floor.url, pids: [floor.pid] }, '/api/bench-floor')]);
    }
    if (configs.some((c) => c.target.dbPids)) {
      const bareProxy = await forkChild(proxyScript, 'proxy', { ports: [baseline.port] });
      servers.push(bareProxy);
      scenarios.push(['bare node:http behind the proxy, fixed JSON', () => measure({ url: bareProxy.url, pids: [baseline.pid, bareProxy.pid] })]);
    }
    for (const config of configs) {
      const word = config.seeded.rareWord;
      const one = (name, path, headers = {}) => [`${config.label}: ${name}`, () => measure(config.target, path, { ...auth(config), ...headers })];
      scenarios.push(one('first page', '/api/entries'));
      if (config.label.startsWith('SQLite')) {
        // The bytes a browser receives, beside what they cost.
        const bytes = await bytesOnTheWire(`${config.target.url}/api/entries`, { ...auth(config), 'accept-encoding': 'gzip, deflate, br' });
        scenarios.push(one(`first page, br as browsers ask (${(bytes / 1024).toFixed(1)} KB)`, '/api/entries', { 'accept-encoding': 'gzip, deflate, br' }));
      }
      scenarios.push(one(`search ?q=${word} (scans all)`, `/api/entries?q=${word}`));
      if (config.extra) scenarios.push(one('?q=walk&tags=work&from=…', '/api/entries?q=walk&tags=work&from=2020-01-01&source=web'));
    }
    const runs = scenarios.map(() => []);
    const loadBefore = loadavg()[0];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, run]] of scenarios.entries()) runs[i].push(await run());
    }
    report(scenarios.map(([name], i) => [name, medianOf(runs[i])]), configs, loadBefore, notes);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

function report(rows, configs, loadBefore, notes) {
  const base = rows[0][1];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  const cell = (value, digits, w) => (value === null ? 'n/a' : value.toFixed(digits)).padStart(w);
  console.log(`\n${ENTRIES} entries · ${CONNECTIONS} connections · ${DURATION_S} s each (after ${WARMUP_S} s warm-up) · medians of ${ROUNDS} rounds, the scenarios in turn · load ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}\n`);
  console.log(`${'scenario'.padEnd(width)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'req/s'.padStart(8)}${'÷bare'.padStart(7)}${'app CPU µs'.padStart(11)}${'db CPU µs'.padStart(10)}${'bare÷CPU'.padStart(9)}`);
  for (const [name, r] of rows) {
    const total = r.cpuUs === null || r.dbUs === null ? null : r.cpuUs + r.dbUs;
    console.log(
      `${name.padEnd(width)}${cell(r.p50, 2, 8)}${cell(r.p99, 2, 8)}${cell(r.rps, 0, 8)}${cell(r.rps / base.rps, 3, 7)}` +
        `${cell(r.cpuUs, 0, 11)}${r.dbUs ? cell(r.dbUs, 0, 10) : '—'.padStart(10)}${cell(total && base.cpuUs / total, 3, 9)}`,
    );
  }
  console.log('\n  ÷bare: req/s against bare node:http with the fixed JSON. CPU µs per request: of the app processes (and of');
  console.log('  the proxy in front of them) and of the PostgreSQL backends serving them; bare÷CPU: bare\'s over both.');
  console.log('\nStatements per request (each a round trip on PostgreSQL), and the journal in memory (in process):');
  for (const config of configs.filter((c, i) => configs.findIndex((o) => o.seeded === c.seeded) === i)) {
    const { inMemory: m, statements } = config.seeded;
    console.log(`  ${config.label}: first page ${statements['first page']}, search ${statements.search} statements; cold load of all ${ENTRIES} entries ${m.coldMs.toFixed(0)} ms;`);
    console.log(`    search in memory ${m.filterMs.toFixed(2)} ms (with the revision check ${m.warmMs.toFixed(2)} ms; String.includes per entry alone ${m.perEntryMs.toFixed(2)} ms)`);
  }
  // Issue 32's targets, for this tree and the tree before alike (each against its own framework floor).
  const cpu = (r) => (r.cpuUs === null ? null : r.cpuUs + (r.dbUs ?? 0));
  const find = (name) => rows.find(([n]) => n === name)?.[1];
  const ratioText = (value, digits = 2) => (value === null || Number.isNaN(value) ? 'n/a' : value.toFixed(digits));
  console.log('\nTargets (issue 32): framework alone ≥ 0.5 of bare; first page ≤ 2.5× the floor\'s CPU (app and database); br ≤ 1.3× the uncompressed first page\'s CPU; search p99 < 30 ms');
  for (const [name, r] of rows.filter(([n]) => n.startsWith('the app\'s framework alone'))) {
    console.log(`  ${name.padEnd(width)} ${(r.rps / base.rps).toFixed(3)} of bare (≥ 0.5: ${r.rps / base.rps >= 0.5 ? 'met' : 'NOT MET'})`);
  }
  for (const config of configs.filter((c) => !c.label.includes('instances'))) {
    const tree = config.label.replace(/^(SQLite|PostgreSQL)/, '');
    const floor = find(`the app's framework alone${tree}, the first page built`);
    const first = find(`${config.label}: first page`);
    const times = floor && first && cpu(floor) && cpu(first) !== null ? cpu(first) / cpu(floor) : null;
    console.log(`  ${`${config.label}: first page`.padEnd(width)} ${ratioText(times)}× the floor's CPU (≤ 2.5: ${times !== null && times <= 2.5 ? 'met' : 'NOT MET'})`);
    const br = rows.find(([n]) => n.startsWith(`${config.label}: first page, br`))?.[1];
    if (br) {
      const more = first && cpu(first) && cpu(br) !== null ? cpu(br) / cpu(first) : null;
      console.log(`  ${`${config.label}: first page, br`.padEnd(width)} ${ratioText(more)}× the uncompressed page's CPU (≤ 1.3: ${more !== null && more <= 1.3 ? 'met' : 'NOT MET'})`);
    }
    const search = rows.find(([n]) => n.startsWith(`${config.label}: search`))?.[1];
    if (search) console.log(`  ${`${config.label}: search`.padEnd(width)} p99 ${search.p99.toFixed(1)} ms (< 30: ${search.p99 < 30 ? 'met' : 'NOT MET'})`);
  }
  for (const note of notes) console.log(`\n${note}`);
}
