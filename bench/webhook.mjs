#!/usr/bin/env node
// The signed inbound webhook with USERS (default 10,000) verified users in the database, each with
// a few weeks of journal: autocannon posts Twilio webhooks carrying a real X-Twilio-Signature (a new
// MessageSid each, from the users in turn), beside a bare node:http server in the same run. The
// webhook answers once the text is recorded (on SQLite: written to the spool beside the database;
// under the flood moved into it only as processing needs them, the rest once the flood is over);
// processing runs after the answer, on the same event loop, so the figures include it. Also reported: how long the texts took to be processed after
// the load stopped, and how many SQL statements processing one text takes.
import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { benchEnv, child as forkChild, cpuSecondsOf, listening, loadApp, medianOf, serveApp } from './support.mjs';

const USERS = Number(process.env.USERS ?? 10_000);
/** Past entries per user (one a day, ending the day before yesterday: no streak milestone today). */
const DAYS = Number(process.env.DAYS ?? 20);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP_S = Math.min(2, DURATION_S);
// Baseline and webhook take turns, this many rounds, each round ending once every text is processed;
// the figures are medians (a baseline measured once drifted with the machine: see run.mjs).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 10;
const PUBLIC_URL = 'http://jotline.bench';
const TOKEN = 'bench-twilio-auth-token';
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
const JOURNAL_NUMBER = '+15555550100';
const phoneOf = (i) => `+1${2000000000 + i}`;
const role = process.argv[2];
let sent = 0;

if (role === 'baseline') {
  const port = await listening(createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'text/xml' }).end('<?xml version="1.0" encoding="UTF-8"?><Response/>'))));
  process.send({ port });
} else if (role === 'app') {
  await serveApp(JSON.parse(process.argv[3]));
} else {
  await main();
}

function child(name, env) {
  return forkChild(import.meta.filename, name, env);
}

/** X-Twilio-Signature: HMAC-SHA1 of the URL Twilio called followed by each sorted field name and value. */
function sign(url, params) {
  const data = Object.keys(params).sort().reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', TOKEN).update(data).digest('base64');
}

function signedText(run) {
  const n = sent++;
  const params = { MessageSid: `SM${run}${n.toString(16).padStart(24, '0')}`, From: phoneOf(n % USERS), To: JOURNAL_NUMBER, Body: `Walked the dog by the river, text ${n}.`, NumMedia: '0' };
  return { body: new URLSearchParams(params).toString(), signature: sign(`${PUBLIC_URL}/webhooks/twilio/sms`, params) };
}

async function measure(server, run) {
  const { url } = server;
  const { default: autocannon } = await import('autocannon');
  const request = {
    method: 'POST',
    path: '/webhooks/twilio/sms',
    setupRequest(req) {
      const { body, signature } = signedText(run);
      return { ...req, body, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature } };
    },
  };
  await autocannon({ url, requests: [request], connections: CONNECTIONS, duration: WARMUP_S });
  const times = [];
  const started = sent;
  const load = autocannon({ url, requests: [request], connections: CONNECTIONS, duration: DURATION_S });
  load.on('response', (_client, status, _bytes, ms) => status < 300 && times.push(ms));
  const cpuBefore = cpuSecondsOf(server.pid);
  const result = await load;
  const cpuAfter = cpuSecondsOf(server.pid);
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  times.sort((a, b) => a - b);
  const percentile = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  // The server's CPU time per answered request (processing done during the load included).
  const cpuUs = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total;
  return { p50: percentile(0.5), p99: percentile(0.99), rps: result.requests.average, cpuUs, texts: sent - started };
}

/** Users, profiles (verified, with their own key salt), trials and DAYS past entries each, written in batches. */
async function seed(app) {
  const { sealEntryText } = await import('../src/server/journal/entry-cipher.ts');
  const { newKeySalt } = await import('../src/server/crypto/encryption.ts');
  const { addDays } = await import('../src/server/journal/dates.ts');
  const { countWords } = await import('../src/shared/journal.ts');
  const ctx = app.ctx;
  const now = new Date();
  const iso = now.toISOString();
  const today = iso.slice(0, 10);
  for (let from = 0; from < USERS; from += 500) {
    const users = [];
    const profiles = [];
    const subscribers = [];
    const entries = [];
    const revisions = [];
    for (let i = from; i < Math.min(USERS, from + 500); i++) {
      const id = `bench-user-${i}`;
      const salt = newKeySalt();
      users.push({ id, email: `u${i}@bench.test`, password_hash: 'x', is_admin: 0, created_at: iso, updated_at: iso });
      profiles.push({ id, phone_number: phoneOf(i), phone_verified: 1, timezone: 'UTC', created_at: iso, key_salt: salt, sms_consent_at: iso, next_reminder_at: null, paused_until: null, updated_at: iso });
      subscribers.push({ id: `bench-sub-${i}`, user_id: id, email: `u${i}@bench.test`, is_trial: 1, trial_end: new Date(now.getTime() + 30 * 86_400_000).toISOString(), subscribed: 0, created_at: iso, updated_at: iso });
      for (let d = 2; d < DAYS + 2; d++) {
        const day = addDays(today, -d);
        const content = `Day ${d}: coffee, a walk by the river, work on the garden, dinner with a friend.`;
        entries.push({ id: `bench-entry-${i}-${d}`, user_id: id, ...sealEntryText(ctx, id, salt, { content, title: null, tags: [] }), source: 'sms', sms_part: 0, entry_date: day, word_count: countWords(content), created_at: `${day}T21:00:00.000Z`, updated_at: `${day}T21:00:00.000Z` });
      }
      revisions.push({ user_id: id, revision: 1 });
    }
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(users).execute();
      await trx.insertInto('profiles').values(profiles).execute();
      await trx.insertInto('subscribers').values(subscribers).execute();
      for (let i = 0; i < entries.length; i += 500) await trx.insertInto('journal_entries').values(entries.slice(i, i + 500)).execute();
      await trx.insertInto('journal_revisions').values(revisions).execute();
    });
  }
}

/**
 * SQL statements run while processing one text (the webhook's own insert not counted), counted at
 * better-sqlite3's statement methods: a user's first text of the day, then a second one.
 */
async function statementsPerText(app) {
  const { recordInboundText } = await import('../src/server/sms/inbound.ts');
  const { processInboundMessage } = await import('../src/server/sms/inbound-job.ts');
  const { default: SQLite } = await import('better-sqlite3');
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  let count = 0;
  const originals = {};
  // BENCH_SQL_DETAIL=1 also lists each statement with its count and time.
  const detail = new Map();
  for (const name of ['run', 'get', 'all', 'iterate']) {
    originals[name] = proto[name];
    proto[name] = function (...args) {
      count += 1;
      if (!process.env.BENCH_SQL_DETAIL) return originals[name].apply(this, args);
      const started = performance.now();
      try {
        return originals[name].apply(this, args);
      } finally {
        const seen = detail.get(this.source) ?? { n: 0, ms: 0 };
        seen.n += 1;
        seen.ms += performance.now() - started;
        detail.set(this.source, seen);
      }
    };
  }
  const counts = [];
  try {
    for (const [round, label] of ['first text of the day', 'second text, same day'].entries()) {
      const sample = [];
      for (let i = 0; i < 50; i++) {
        const { id } = await recordInboundText(app.ctx, { messageSid: `SMcount${round}x${i}`, from: phoneOf(USERS - 1 - i), to: JOURNAL_NUMBER, body: 'Counting statements.', media: [] });
        count = 0;
        const outcome = await processInboundMessage(app.ctx, id);
        if (outcome.status !== 'processed') throw new Error(`text not processed: ${JSON.stringify(outcome)}`);
        sample.push(count);
      }
      sample.sort((a, b) => a - b);
      counts.push([label, sample[Math.floor(sample.length / 2)]]);
    }
  } finally {
    Object.assign(proto, originals);
  }
  for (const [source, { n, ms }] of [...detail].sort((a, b) => b[1].ms - a[1].ms)) console.log(`${ms.toFixed(1).padStart(8)} ms ${String(n).padStart(4)}× ${source.slice(0, 160)}`);
  return counts;
}

async function main() {
  const { dataDir, env } = benchEnv({
    PUBLIC_URL,
    JOURNAL_NUMBER,
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: 'AC' + '0'.repeat(32),
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: JOURNAL_NUMBER,
    // Replies would go nowhere: no text here needs one (a running trial, no milestone today).
    TWILIO_API_URL: 'http://127.0.0.1:9',
    METRICS_TOKEN,
  });
  const servers = [];
  try {
    let started = performance.now();
    const app = await loadApp(env);
    await seed(app);
    console.log(`${USERS.toLocaleString('en-US')} verified users with ${DAYS} entries each written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const statements = await statementsPerText(app);
    if (process.env.BENCH_SQL_DETAIL) {
      console.log(statements);
      await app.close();
      return;
    }
    const db = app.ctx.db;
    servers.push(await child('baseline'), await child('app', { ...env, JOBS: 'on', ...(process.env.BENCH_SQLITE_SYNCHRONOUS ? { BENCH_SQLITE_SYNCHRONOUS: process.env.BENCH_SQLITE_SYNCHRONOUS } : {}) }));
    const [baseline, api] = servers;
    const pending = async () => Number((await db.selectFrom('sms_messages').select((eb) => eb.fn.countAll().as('n')).where('direction', '=', 'inbound').where('processed', '=', 0).executeTakeFirstOrThrow()).n);
    const bare = [];
    const hooks = [];
    const drains = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await measure(baseline, `b${round}`));
      hooks.push(await measure(api, `a${round}`));
      // Texts are answered once recorded; the rest are processed after the load stops.
      started = performance.now();
      const atStop = await pending();
      let left = atStop;
      while (left > 0 && performance.now() - started < 120_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        left = await pending();
      }
      drains.push({ atStop, left, seconds: (performance.now() - started) / 1000 });
    }
    const rows = [
      ['bare node:http, fixed TwiML', medianOf(bare)],
      [`POST /webhooks/twilio/sms (signed), ${USERS.toLocaleString('en-US')} users`, medianOf(hooks)],
    ];
    const processed = Number((await db.selectFrom('sms_messages').select((eb) => eb.fn.countAll().as('n')).where('direction', '=', 'inbound').where('processed', '=', 1).executeTakeFirstOrThrow()).n);
    await app.close();

    const base = rows[0][1];
    console.log(`\n${CONNECTIONS} connections · ${DURATION_S} s each (after ${WARMUP_S} s warm-up) · a new signed MessageSid per request · medians of ${ROUNDS} rounds, in turn\n`);
    console.log(`${'scenario'.padEnd(52)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'req/s'.padStart(9)}${'p99 ×bare'.padStart(11)}${'req/s ÷bare'.padStart(13)}${'CPU µs/req'.padStart(12)}${'bare ÷CPU'.padStart(11)}`);
    for (const [name, r] of rows) {
      console.log(`${name.padEnd(52)}${r.p50.toFixed(2).padStart(8)}${r.p99.toFixed(2).padStart(8)}${r.rps.toFixed(0).padStart(9)}${(r.p99 / base.p99).toFixed(1).padStart(11)}${(r.rps / base.rps).toFixed(3).padStart(13)}${(r.cpuUs === null ? 'n/a' : r.cpuUs.toFixed(0)).padStart(12)}${(r.cpuUs === null || base.cpuUs === null ? 'n/a' : (base.cpuUs / r.cpuUs).toFixed(3)).padStart(11)}`);
    }
    console.log(`\n  texts processed: ${processed.toLocaleString('en-US')} in all; after each round's load:`);
    for (const [i, d] of drains.entries()) {
      console.log(`    round ${i + 1}: ${d.atStop.toLocaleString('en-US')} unprocessed when the load stopped, all processed ${d.seconds.toFixed(1)} s later${d.left ? ` (${d.left} still waiting)` : ''}`);
    }
    console.log('  SQL statements to process one text (median of 50, the webhook\'s insert not counted):');
    for (const [label, n] of statements) console.log(`    ${label.padEnd(28)}${String(n).padStart(4)}`);
  } finally {
    for (const s of servers) s.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
