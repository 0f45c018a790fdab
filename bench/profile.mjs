#!/usr/bin/env node
// `node bench/profile.mjs`: where a request's CPU goes. Runs the app's framework alone (the
// first page already built, as run.mjs's "framework alone") and the journal's first page on SQLite,
// each in its own process under `node --cpu-prof`, loads each for a few seconds after a second of
// warm-up, and prints the functions with the most self time under that load (idle excluded) with
// their share of the process's busy time.
// BENCH_APP_ROOT=dir profiles another checkout with these same scripts; BENCH_PROFILE_DIR=dir keeps
// the .cpuprofile files (open them in a browser's developer tools).
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { appModule, appRoot, benchEnv, loadApp } from './support.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const TOP = Number(process.env.BENCH_PROFILE_TOP ?? 15);
const ENTRIES = 3650;
const runScript = join(import.meta.dirname, 'run.mjs');

/** Forks run.mjs in `role` under --cpu-prof writing into `dir`; resolves with its URL and a stop. */
function profiled(role, env, dir) {
  const proc = fork(runScript, [role, JSON.stringify(env)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    env: { ...process.env, BENCH_APP_ROOT: appRoot },
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  return new Promise((resolve, reject) => {
    proc.once('message', ({ port }) => resolve({ url: `http://127.0.0.1:${port}`, stop: () => (proc.kill('SIGINT'), exited) }));
    proc.once('exit', (code) => reject(new Error(`${role} exited (${code})`)));
  });
}

/** A function's file as the table shows it: node's own, a package's, or the app's from its root. */
function where(url) {
  if (!url || url.startsWith('node:')) return url;
  const path = url.replace(/^file:\/\//, '');
  return path.includes('/node_modules/') ? `node_modules/${path.split('/node_modules/').pop()}` : relative(appRoot, path);
}

/** Microseconds on the monotonic clock the profiles' timestamps use. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Self time per function (name, file and line), from a .cpuprofile's samples taken between `from`
 * and `to` (monotonic µs): the measured load only, not the process's start or the warm-up.
 */
function topEntries(profile, from, to) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (at < from || at > to) return;
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(idle)') return;
    busy += us;
    const file = where(callFrame.url);
    const key = `${callFrame.functionName || '(anonymous)'}${file ? ` ${file}:${callFrame.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + us);
  });
  return { busy, top: [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP) };
}

async function profile(label, role, env, path, headers = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'jotline-profile-'));
  const server = await profiled(role, env, dir);
  const { default: autocannon } = await import('autocannon');
  await autocannon({ url: `${server.url}${path}`, headers, connections: 10, duration: 1 });
  const from = monotonicUs();
  const result = await autocannon({ url: `${server.url}${path}`, headers, connections: 10, duration: SECONDS });
  const to = monotonicUs();
  await server.stop();
  if (result.non2xx || result.errors) throw new Error(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  const { busy, top } = topEntries(JSON.parse(readFileSync(join(dir, file), 'utf8')), from, to);
  if (process.env.BENCH_PROFILE_DIR) {
    // The profile, with the window of the measured load (monotonic µs, as its timestamps) beside it.
    const name = join(process.env.BENCH_PROFILE_DIR, `${role}-${label.replace(/\W+/g, '-')}`);
    writeFileSync(`${name}.cpuprofile`, readFileSync(join(dir, file)));
    writeFileSync(`${name}.window.json`, JSON.stringify({ from, to }));
  }
  rmSync(dir, { recursive: true, force: true });
  const requests = result.requests.total;
  console.log(`\n${label}: ${requests} requests in ${SECONDS} s, ${((busy / requests) | 0)} µs of the main thread busy a request (after 1 s of warm-up; sampled on the wall clock, so it runs high on a busy machine)`);
  for (const [name, us] of top) console.log(`  ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name}`);
}

const { dataDir, env } = benchEnv();
try {
  const app = await loadApp(env);
  let token;
  try {
    const { seedJournal } = await appModule('bench/seed-journal.ts');
    ({ token } = await seedJournal(app, ENTRIES));
  } finally {
    await app.close();
  }
  const headers = { authorization: `Bearer ${token}` };
  const api = await profiled('app', env, dataDir);
  const firstPage = await (await fetch(`${api.url}/api/entries`, { headers })).text();
  await api.stop();
  const bodyFile = join(dataDir, 'first-page.json');
  writeFileSync(bodyFile, firstPage);
  const commit = execFileSync('git', ['-C', appRoot, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  console.log(`Profiles of ${commit}, ${SECONDS} s of load each (10 connections); self time under the load, top ${TOP}:`);
  await profile('the app\'s framework alone, the first page built', 'floor', { ...env, BODY_FILE: bodyFile }, '/api/bench-floor');
  await profile('SQLite: first page', 'app', env, '/api/entries', headers);
  await profile('SQLite: first page, br as browsers ask', 'app', env, '/api/entries', { ...headers, 'accept-encoding': 'gzip, deflate, br' });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
