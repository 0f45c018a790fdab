#!/usr/bin/env node
// Inbound texts with USERS (default 10,000) verified users, each with a few weeks of journal, on
// SQLite (as shipped, synchronous FULL, and at NORMAL to show what FULL costs), on PostgreSQL, and
// on PostgreSQL with three instances behind one port (bench/proxy.mjs). The webhook records a text
// and answers; the inbound job processes it in the same process (JOBS=on, as in production).
// For each: (1) the webhook flat out (autocannon, 10 connections, signed webhooks with a new
// MessageSid each) beside a bare node:http server, and how long the texts then took to be processed;
// (2) end to end at fixed rates (end-to-end.mjs). Also: the statements processing one text takes.
import { createServer } from 'node:http';
import { rmSync, writeSync, openSync, closeSync, fsyncSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pacedLoad, RATES, STEP_S, stepLines, sustainedSteps } from './end-to-end.mjs';
import { DAYS, phoneOf, seedUsers, signedText, unprocessedSince, USERS, webhookEnv, WEBHOOK_PATH } from './inbound-support.mjs';
import { countStatements } from './statements.mjs';
import { appModule, appRoot, beforeTree, benchDatabases, benchDb, child as forkChild, cpuMeter, cpuSecondsOfAll, listening, loadApp, median, medianOf, postgresBackendPids, postgresDatabase, quantile, serveApp } from './support.mjs';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP_S = Math.min(1, DURATION_S);
// Baseline and webhook take turns, this many rounds (a baseline measured once drifted with the machine: see run.mjs).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const INSTANCES = 3;
const proxyScript = join(import.meta.dirname, 'proxy.mjs');
const role = process.argv[2];

if (role === 'baseline') {
  const port = await listening(createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'text/xml' }).end('<?xml version="1.0" encoding="UTF-8"?><Response/>'))));
  process.send({ port });
} else if (role === 'app') {
  await serveApp(JSON.parse(process.argv[3]));
} else {
  await main();
}

function child(name, env, root) {
  return forkChild(import.meta.filename, name, env, root);
}

/** Flat out for DURATION_S: answers per second, latency, and the CPU per answer of `pids` (and the database's). */
async function flatOut({ url, pids, dbPids }, tag) {
  const { default: autocannon } = await import('autocannon');
  let n = 0;
  const request = {
    method: 'POST',
    path: WEBHOOK_PATH,
    setupRequest(req) {
      const { body, signature } = signedText(tag, n++);
      return { ...req, body, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature } };
    },
  };
  await autocannon({ url, requests: [request], connections: CONNECTIONS, duration: WARMUP_S });
  const times = [];
  const dbCpu = dbPids ? cpuMeter(await dbPids()) : null;
  const before = cpuSecondsOfAll(pids);
  const load = autocannon({ url, requests: [request], connections: CONNECTIONS, duration: DURATION_S });
  load.on('response', (_client, status, _bytes, ms) => status < 300 && times.push(ms));
  const result = await load;
  const cpu = cpuSecondsOfAll(pids) - before;
  const dbSeconds = dbCpu?.stop() ?? 0;
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  times.sort((a, b) => a - b);
  const total = result.requests.total;
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), rps: result.requests.average, cpuUs: (cpu * 1e6) / total, dbUs: (dbSeconds * 1e6) / total };
}

/**
 * Statements and commits (transactions, and writes outside one) a text takes, the webhook's insert
 * and processing: a user's first text of the day, then a second (medians of 20).
 */
async function statementsPerText(app, kind) {
  const { recordInboundText } = await appModule('src/server/sms/inbound.ts');
  const { processInboundMessage } = await appModule('src/server/sms/inbound-job.ts');
  const counts = [];
  for (const [round, label] of ['first text of the day', 'second text, same day'].entries()) {
    const statements = [];
    const commits = [];
    for (let i = 0; i < 20; i++) {
      const text = { messageSid: `SMcount${round}x${i}`, from: phoneOf(USERS - 1 - i), to: '+15555550100', body: 'Counting statements.', media: [] };
      let id;
      const webhook = await countStatements(kind, async () => ({ id } = await recordInboundText(app.ctx, text)));
      const processing = await countStatements(kind, async () => {
        const outcome = await processInboundMessage(app.ctx, id);
        if (outcome.status !== 'processed') throw new Error(`text not processed: ${JSON.stringify(outcome)}`);
      });
      statements.push(webhook.count + processing.count);
      commits.push(webhook.commits + processing.commits);
    }
    counts.push(`${label} ${median(statements)} statements, ${median(commits)} commits`);
  }
  return counts.join('; ');
}

/** What one fsync of a 4 KB write takes on the disk the databases are on (median of 50): each SQLite commit at FULL waits for one. */
function fsyncMs(dir) {
  const file = join(dir, 'fsync-probe');
  const fd = openSync(file, 'w');
  const times = [];
  for (let i = 0; i < 50; i++) {
    writeSync(fd, Buffer.alloc(4096, i));
    const started = performance.now();
    fsyncSync(fd);
    times.push(performance.now() - started);
  }
  closeSync(fd);
  rmSync(file);
  return median(times);
}

/** Seeds a database through an app (of the tree at `root`) in this process; the statement counts from there. */
async function seed(env, kind, root) {
  const started = performance.now();
  const app = await loadApp(env, root);
  try {
    await seedUsers(app, root);
    const seconds = (performance.now() - started) / 1000;
    return { seconds, statements: root === appRoot ? await statementsPerText(app, kind) : 'not counted' };
  } finally {
    await app.close();
  }
}

/** Starts `count` app instances (and the proxy in front when more than one), runs `work` against them, stops them. */
async function withInstances({ env, count, db, root }, work) {
  const instances = [];
  for (let i = 0; i < count; i++) instances.push(await child('app', { ...env, JOBS: 'on' }, root));
  const proxy = count > 1 ? await forkChild(proxyScript, 'proxy', { ports: instances.map((s) => s.port) }) : null;
  const pg = /^postgres/.test(env.DATABASE_URL);
  const target = { url: (proxy ?? instances[0]).url, pids: [...instances, ...(proxy ? [proxy] : [])].map((s) => s.pid), dbPids: pg ? () => postgresBackendPids(db) : null, db };
  try {
    return await work(target);
  } finally {
    await Promise.all([...instances, ...(proxy ? [proxy] : [])].map((s) => s.stop()));
  }
}

/** Flat-out rounds of bare and the app in turn; after each app round, how long its texts took to be processed. */
async function flatOutRounds(bare, target, tag) {
  const bares = [];
  const hooks = [];
  const drains = [];
  for (let round = 0; round < ROUNDS; round++) {
    bares.push(await flatOut(bare, `b${tag}${round}`));
    const since = new Date(Date.now() - 1000).toISOString();
    hooks.push(await flatOut(target, `a${tag}${round}`));
    const started = performance.now();
    const atStop = await unprocessedSince(target.db, since);
    let left = atStop;
    while (left > 0 && performance.now() - started < 120_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      left = await unprocessedSince(target.db, since);
    }
    drains.push({ atStop, left, seconds: (performance.now() - started) / 1000 });
  }
  return { bare: medianOf(bares), hook: medianOf(hooks), drains };
}

async function main() {
  const cleanups = [];
  const servers = [];
  const results = [];
  const notes = [];
  const { dataDir, env: sqliteEnv } = webhookEnv();
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  try {
    const baseline = await child('baseline');
    servers.push(baseline);
    const bare = { url: baseline.url, pids: [baseline.pid] };
    const bareSteps = (await pacedLoad(baseline.url, RATES.at(-1), 3, 'bare')).texts.map((t) => t.ackMs).sort((a, b) => a - b);
    const runs = [];
    const before = beforeTree();
    for (const tree of [{ root: appRoot, label: '' }, ...(before ? [{ ...before, label: `, ${before.label}` }] : [])]) {
      if (benchDatabases.includes('sqlite')) {
        const { dataDir: dir, env } = tree.label ? webhookEnv() : { dataDir, env: sqliteEnv };
        if (tree.label) cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
        const seeded = await seed(env, 'sqlite', tree.root);
        const db = await benchDb(env.DATABASE_URL);
        cleanups.push(() => db.destroy());
        // The tree before left synchronous at the driver's default, NORMAL once the file exists in WAL mode.
        runs.push({ label: tree.label ? `SQLite${tree.label}` : 'SQLite (synchronous FULL, as shipped)', env, count: 1, db, seeded, root: tree.root });
        if (!tree.label) runs.push({ label: 'SQLite at synchronous NORMAL', env: { ...env, BENCH_SQLITE_SYNCHRONOUS: 'NORMAL' }, count: 1, db, seeded, root: tree.root });
      }
      if (benchDatabases.includes('postgres')) {
        const pg = await postgresDatabase(tree.label ? 'inbound_before' : 'inbound');
        if (pg.skipped) {
          notes.push(`PostgreSQL figures skipped: ${pg.skipped}`);
          continue;
        }
        cleanups.push(() => pg.drop());
        const { dataDir: pgDir, env } = webhookEnv({ DATABASE_URL: pg.url });
        cleanups.push(() => rmSync(pgDir, { recursive: true, force: true }));
        const seeded = await seed(env, 'postgres', tree.root);
        const db = await benchDb(pg.url);
        cleanups.push(() => db.destroy());
        runs.push({ label: `PostgreSQL${tree.label}`, env, count: 1, db, seeded, root: tree.root });
        // The tree before is measured on one instance only.
        if (!tree.label) runs.push({ label: `PostgreSQL, ${INSTANCES} instances behind the proxy`, env, count: INSTANCES, db, seeded, root: tree.root });
      }
    }
    for (const [i, run] of runs.entries()) {
      const loadBefore = loadavg()[0];
      // The disk's pace moves with the machine's other work: measured before each run.
      const fsync = fsyncMs(dataDir);
      const figures = await withInstances(run, async (target) => ({
        flat: await flatOutRounds(bare, target, `f${i}`),
        steps: await sustainedSteps(target, `e${i}`),
      }));
      results.push({ ...run, ...figures, fsync, load: `${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}` });
    }
    report(results, { bareSteps, notes });
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

function report(results, { bareSteps, notes }) {
  const seededOnce = new Set();
  for (const r of results) {
    if (seededOnce.has(r.seeded)) continue;
    seededOnce.add(r.seeded);
    console.log(`${r.label.replace(/ \(synchronous FULL, as shipped\)/, '')}: ${USERS.toLocaleString('en-US')} verified users with ${DAYS} entries each written in ${r.seeded.seconds.toFixed(1)} s`);
    console.log(`  a text, webhook and processing (the claim of a batch counted whole): ${r.seeded.statements}`);
  }
  console.log(`Disk: one fsync of a 4 KB write took ${results.map((r) => r.fsync.toFixed(2)).join(', ')} ms before each run below (medians of 50);`);
  console.log('  a SQLite commit at FULL waits for one on the event loop (at NORMAL, only checkpoints do); PostgreSQL commits wait for theirs together.');

  console.log(`\n(1) The webhook flat out: ${CONNECTIONS} connections · ${DURATION_S} s each (after ${WARMUP_S} s warm-up) · medians of ${ROUNDS} rounds, bare and app in turn\n`);
  const width = Math.max(...results.map((r) => r.label.length)) + 2;
  console.log(`${'scenario'.padEnd(width)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'req/s'.padStart(8)}${'÷bare'.padStart(7)}${'app CPU µs'.padStart(11)}${'db CPU µs'.padStart(10)}${'bare÷CPU'.padStart(9)}  then processed`);
  for (const r of results) {
    const { bare, hook, drains } = r.flat;
    const row = (name, x, tail) =>
      console.log(`${name.padEnd(width)}${x.p50.toFixed(2).padStart(8)}${x.p99.toFixed(2).padStart(8)}${x.rps.toFixed(0).padStart(8)}${(x.rps / bare.rps).toFixed(3).padStart(7)}${x.cpuUs.toFixed(0).padStart(11)}${(x.dbUs ? x.dbUs.toFixed(0) : '—').padStart(10)}${(bare.cpuUs / (x.cpuUs + x.dbUs)).toFixed(3).padStart(9)}${tail}`);
    row('  bare node:http, fixed TwiML', bare, '');
    const drained = drains.map((d) => `${d.atStop.toLocaleString('en-US')} in ${d.seconds.toFixed(1)} s${d.left ? ` (${d.left} left)` : ''}`).join('; ');
    row(r.label, hook, `  ${drained}  (load ${r.load})`);
  }
  console.log('  then processed: texts waiting when the load stopped, and how long until all were processed, each round.');

  console.log(`\n(2) End to end at fixed rates: ${STEP_S} s a step, from each webhook's due time to its row processed; a rate holds when`);
  console.log('    all are acknowledged and processed, and at most two seconds of texts wait at the step\'s end (a backlog that grows does not).');
  console.log(`    bare node:http at ${RATES.at(-1)}/s from the same sender: ack p50 ${quantile(bareSteps, 0.5).toFixed(1)} ms, p99 ${quantile(bareSteps, 0.99).toFixed(1)} ms\n`);
  const summary = [];
  for (const r of results) {
    for (const line of stepLines(`${r.label} (load ${r.load}, fsync ${r.fsync.toFixed(2)} ms)`, r.steps).lines) console.log(line);
    if (!/before|NORMAL/.test(r.label)) summary.push([r.label, r.steps.find((s) => s.rate >= 1000 && s.holds && s.p99 < 2000)]);
  }
  console.log('\nTarget (issue 23): ≥ 1,000 texts/s sustained with p99 webhook → journal < 2 s, on SQLite and on PostgreSQL');
  for (const [label, met] of summary) {
    console.log(`  ${label.padEnd(width)} ${met ? `met (${met.rate}/s holds, p99 ${(met.p99 / 1000).toFixed(2)} s)` : 'NOT MET'}`);
  }
  for (const note of notes) console.log(`\n${note}`);
}
