#!/usr/bin/env node
// Voice notes arriving at once (issue 31): 100 recordings of 60 s (8 kHz μ-law WAV, as a call gives)
// uploaded together through POST /api/entries/:id/recordings by ten users, then transcribed by the
// app's transcription job through an OpenAI-compatible endpoint that answers each request after 2 s
// (a plain local server here). The app runs in a child process with its jobs on, as in production.
// Meanwhile another user's first page (GET /api/entries, a 3,650-entry journal) is asked at a steady
// rate, beside the same load with no recordings. Figures: upload time, time until every recording is
// transcribed, recordings a minute, the other requests' p50/p99, and the app's longest event-loop
// stall (perf_hooks.monitorEventLoopDelay inside the app process). Printed, never asserted.
import { execFileSync, fork } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { appModule, benchDatabases, benchDb, benchEnv, listening, loadApp, postgresDatabase, quantile, serveApp } from './support.mjs';

const RECORDINGS = Number(process.env.BENCH_RECORDINGS ?? 100);
const SECONDS_EACH = 60;
const USERS = 10;
/** How long the fake endpoint takes to answer each request. */
const ANSWER_MS = Number(process.env.BENCH_ANSWER_MS ?? 2000);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const CONNECTIONS = 10;
const BASELINE_S = Number(process.env.BENCH_SECONDS ?? 10);
const DAYS = 3650;

/** A 60 s call recording made once: a tone under noise, 8 kHz mono μ-law WAV. */
function callRecording() {
  const dir = mkdtempSync(join(tmpdir(), 'jotline-voice-'));
  try {
    const file = join(dir, 'call.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=220:duration=${SECONDS_EACH}`, '-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.1:duration=${SECONDS_EACH}:seed=7`, '-filter_complex', 'amix=inputs=2', '-ar', '8000', '-ac', '1', '-c:a', 'pcm_mulaw', file]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An OpenAI-compatible `POST /v1/audio/transcriptions` that reads the form and answers `{text}` after ANSWER_MS. */
async function fakeTranscriber() {
  let answered = 0;
  let inFlight = 0;
  let mostAtOnce = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
        res.writeHead(404).end();
        return;
      }
      inFlight++;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      setTimeout(() => {
        inFlight--;
        answered++;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: `A voice note of about a minute, number ${answered}.` }));
      }, ANSWER_MS);
    });
  });
  const port = await listening(server);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stats: () => ({ answered, mostAtOnce }),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

/** The app in a child process (this script in the role 'app'); `stall()` asks its longest event-loop delay since the last ask. */
function startApp(env) {
  const execArgv = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const proc = fork(import.meta.filename, ['app', JSON.stringify(env)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  return new Promise((resolve, reject) => {
    proc.once('message', ({ port }) =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        pid: proc.pid,
        stall: () =>
          new Promise((answer) => {
            proc.once('message', answer);
            proc.send('stall');
          }),
        stop: () => {
          proc.kill('SIGINT');
          return exited;
        },
      }),
    );
    proc.once('exit', (code) => reject(new Error(`app exited (${code})`)));
  });
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

/** Uploads every recording at once, then follows the recordings table until none is pending. */
async function uploadAndTranscribe(app, db, uploads, audio) {
  const started = performance.now();
  // Every answer is kept: an upload refused (its status and error code) is a figure, not the end of the run.
  const answers = await Promise.all(
    uploads.map(async ({ token, entryId }) => {
      const form = new FormData();
      form.append('file', new Blob([audio], { type: 'audio/wav' }), 'call.wav');
      const res = await fetch(`${app.url}/api/entries/${entryId}/recordings`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      const body = await res.text();
      let code = '';
      if (res.status !== 201) code = JSON.parse(body)?.error?.code ?? '';
      return { ms: performance.now() - started, status: res.status, code };
    }),
  );
  const uploadedMs = Math.max(...answers.map((a) => a.ms));
  const accepted = answers.filter((a) => a.status === 201).length;
  const refused = {};
  for (const a of answers) if (a.status !== 201) refused[`${a.status} ${a.code}`] = (refused[`${a.status} ${a.code}`] ?? 0) + 1;
  const progress = [];
  for (;;) {
    const rows = await db.selectFrom('journal_recordings').select(['transcript_status']).execute();
    const done = rows.filter((r) => r.transcript_status === 'done').length;
    const failed = rows.filter((r) => r.transcript_status === 'failed').length;
    const at = (performance.now() - started) / 1000;
    if (!progress.length || progress.at(-1).done !== done) progress.push({ at, done });
    if (rows.length === accepted && done + failed === accepted) return { uploadS: uploadedMs / 1000, totalS: at, done, failed, progress, accepted, refused };
    if (at > 1800) throw new Error(`not all transcribed after 30 min: ${done} done, ${failed} failed`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function measureOn(kind, dbUrl, audio) {
  const transcriber = await fakeTranscriber();
  const { env, dataDir } = benchEnv({ ...(dbUrl ? { DATABASE_URL: dbUrl } : {}), JOBS: 'on', TRANSCRIBE_URL: transcriber.url, TRANSCRIBE_API_KEY: 'sk-bench' });
  const seeding = await loadApp(env);
  const { seedJournal } = await appModule('bench/seed-journal.ts');
  const { buildUser, signIn } = await appModule('src/server/test/factories.ts');
  const reader = await seedJournal(seeding, DAYS);
  const speakers = [];
  for (let i = 0; i < USERS; i++) speakers.push(await signIn({ app: seeding }, await buildUser({ app: seeding }, { timezone: 'America/Chicago' })));
  await seeding.close();

  const app = await startApp(env);
  const db = await benchDb(env.DATABASE_URL);
  const rows = [];
  try {
    // Each speaker's entry of the day, and the app warm (the reader's journal in memory, routes compiled).
    const entries = [];
    for (const token of speakers) {
      const res = await fetch(`${app.url}/api/entries`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'On the way home.' }) });
      if (res.status !== 201) throw new Error(`POST /api/entries: ${res.status} ${await res.text()}`);
      entries.push({ token, entryId: (await res.json()).id });
    }
    for (let i = 0; i < 20; i++) await (await fetch(`${app.url}/api/entries`, { headers: { authorization: `Bearer ${reader.token}` } })).text();

    await app.stall();
    const idle = await otherRequests(app.url, reader.token, new Promise((resolve) => setTimeout(resolve, BASELINE_S * 1000)));
    rows.push({ label: `${kind}: no recordings`, other: idle, stallMs: await app.stall() });

    const uploads = Array.from({ length: RECORDINGS }, (_, i) => entries[i % USERS]);
    let result;
    const other = await otherRequests(app.url, reader.token, (async () => (result = await uploadAndTranscribe(app, db, uploads, audio)))());
    rows.push({ label: `${kind}: ${RECORDINGS} recordings of ${SECONDS_EACH} s at once`, other, stallMs: await app.stall(), result, transcriber: transcriber.stats() });
  } finally {
    await db.destroy();
    await app.stop();
    await transcriber.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

async function main() {
  const audio = callRecording();
  console.log(`${RECORDINGS} recordings of ${SECONDS_EACH} s (8 kHz mono μ-law WAV, ${(audio.length / 1024).toFixed(0)} KB each) from ${USERS} users, all uploaded at once`);
  console.log(`Transcription endpoint: OpenAI-compatible, answering each request after ${(ANSWER_MS / 1000).toFixed(1)} s`);
  console.log(`Other requests: GET /api/entries (another user's first page, 3,650 entries) at ${RATE}/s over ${CONNECTIONS} connections\n`);

  printHeader();
  for (const kind of benchDatabases) {
    if (kind === 'sqlite') printRows(await measureOn('SQLite', null, audio));
    if (kind === 'postgres') {
      const pg = await postgresDatabase('voice');
      if (pg.skipped) {
        console.log(`PostgreSQL skipped: ${pg.skipped}`);
        continue;
      }
      try {
        printRows(await measureOn('PostgreSQL', pg.url, audio));
      } finally {
        await pg.drop();
      }
    }
  }

  console.log('\n  upload s: until the last of the simultaneous uploads was answered; all done s: until no accepted recording was pending.');
  console.log('  other p50/p99/max: ms per answer of the steady other requests over the whole run (uploads included).');
  console.log("  loop stall: the app process's longest event-loop delay over the same span (monitorEventLoopDelay, 10 ms resolution).");
}

const ms = (n) => (n === undefined || n === null ? '' : n.toFixed(1));
function printHeader() {
  console.log(`${'scenario'.padEnd(44)}${'upload s'.padStart(9)}${'all done s'.padStart(11)}${'per min'.padStart(8)}${'other p50'.padStart(10)}${'p99'.padStart(7)}${'max'.padStart(7)}${'loop stall'.padStart(11)}`);
}

/** One database's rows, printed as soon as they are measured. */
function printRows(rows) {
  for (const { label, other, stallMs, result, transcriber } of rows) {
    const perMin = result ? ((result.done / result.totalS) * 60).toFixed(1) : '';
    console.log(
      `${label.padEnd(44)}${(result ? result.uploadS.toFixed(1) : '').padStart(9)}${(result ? result.totalS.toFixed(1) : '').padStart(11)}${perMin.padStart(8)}${ms(other.p50).padStart(10)}${ms(other.p99).padStart(7)}${ms(other.max).padStart(7)}${`${ms(stallMs)} ms`.padStart(11)}`,
    );
    if (other.errors) console.log(`  ${other.errors} other requests failed`);
    if (result) {
      if (result.accepted < RECORDINGS) console.log(`  uploads refused: ${Object.entries(result.refused).map(([k, n]) => `${n} × ${k}`).join(', ')}; ${result.accepted} accepted`);
      console.log(`  ${result.done} transcribed, ${result.failed} not; the endpoint answered ${transcriber.answered} requests, at most ${transcriber.mostAtOnce} at once; ${other.count.toLocaleString('en-US')} other requests meanwhile`);
      const marks = [0.25, 0.5, 0.75, 1].map((f) => result.progress.find((p) => p.done >= Math.ceil(f * result.accepted))).filter(Boolean);
      console.log(`  transcribed by: ${marks.map((p) => `${p.done} at ${p.at.toFixed(0)} s`).join(', ')}`);
      let gap = { s: 0, at: 0 };
      for (let i = 1; i < result.progress.length; i++) {
        const s = result.progress[i].at - result.progress[i - 1].at;
        if (s > gap.s) gap = { s, at: result.progress[i - 1].at };
      }
      console.log(`  longest wait between two transcripts: ${gap.s.toFixed(1)} s (after ${gap.at.toFixed(0)} s)`);
    }
  }
}

if (process.argv[2] === 'app') {
  // Inside the app process: its event loop's delays, the longest since the bench last asked.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', (message) => {
    if (message !== 'stall') return;
    process.send(delay.max / 1e6);
    delay.reset();
  });
  await serveApp(JSON.parse(process.argv[3]));
} else await main();
