#!/usr/bin/env node
// Outbound texts to a fake Twilio in another process.
//
// 1. Unpaced, on SQLite: TEXTS texts (default 5,000) queued, then sent by the outbound sender, beside
//    the same number of bare POSTs to the fake made straight from this process with the same
//    concurrency (the baseline, in the same run).
// 2. Paced, on PostgreSQL: REMINDERS reminders (default 100,000) fallen due at 20:00, sent by three
//    app instances (real apps with their job schedulers, each a process of its own) sharing one
//    database and SMS_SEND_RATE=RATE (default 75). The fake Twilio notes when each text arrives. The
//    rate is measured over WINDOW_S seconds (default 60) after the first 5 (the budget a quiet
//    sender carries over, and start-up, are left out); the time for all reminders is computed from
//    it. ALL=1 waits for every reminder instead and reports the time taken; REMINDERS=0 skips this part.
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { appModule, benchEnv, loadApp, postgresDatabase } from './support.mjs';

const TEXTS = Number(process.env.TEXTS ?? 5_000);
const CONCURRENCY = 24;
const REMINDERS = Number(process.env.REMINDERS ?? 100_000);
const RATE = Number(process.env.RATE ?? 75);
const WINDOW_S = Number(process.env.WINDOW_S ?? 60);
const WARM_UP_S = 5;
const INSTANCES = 3;
const ALL = process.env.ALL === '1';
const BODY = 'Jotline: Time to write. How was your day? Text back to add it to your journal. Reply STOP to opt out.';

const [role, roleEnv] = process.argv.slice(2);
if (role === 'twilio') {
  // Twilio's Messages endpoint as far as the sender needs it: 201 with a sid and "queued". Notes
  // the arrival of each text (ms, this process's clock) by the account in its path, one per instance.
  const arrivals = [];
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push([performance.timeOrigin + performance.now(), /Accounts\/([^/]+)/.exec(req.url)?.[1] ?? '']);
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `SM${(++n).toString(16).padStart(32, '0')}`, status: 'queued' }));
    });
  });
  process.on('message', (message) => {
    if (message === 'arrivals') process.send({ arrivals });
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else if (role === 'instance') {
  // One app instance with its background jobs on: the scheduler's outbound sender does the sending.
  const app = await loadApp(JSON.parse(roleEnv));
  await app.ready();
  process.send({ ready: true });
  process.once('SIGINT', () => void app.close().finally(() => process.exit(0)));
} else {
  const twilio = fork(import.meta.filename, ['twilio'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise((resolve) => twilio.once('message', ({ port }) => resolve(`http://127.0.0.1:${port}`)));
  try {
    await unpaced(url);
    await paced(url, twilio);
  } finally {
    twilio.kill();
  }
}

function twilioEnv(url, accountSid) {
  return { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: 'bench-token', TWILIO_FROM: '+15555550100', TWILIO_API_URL: url };
}

async function unpaced(url) {
  const { enqueueSms, sendDueMessages } = await appModule('src/server/sms/outbound.ts');
  const { dataDir, env } = benchEnv(twilioEnv(url, 'ACbench'));
  const app = await loadApp(env);
  try {
    // Baseline: the same number of form POSTs to the fake, CONCURRENCY at a time.
    let next = 0;
    const post = async () => {
      while (next++ < TEXTS) {
        const res = await fetch(`${url}/2010-04-01/Accounts/ACbase/Messages.json`, { method: 'POST', body: new URLSearchParams({ To: '+15555550123', From: '+15555550100', Body: BODY }) });
        await res.arrayBuffer();
      }
    };
    let started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, post));
    const bareRate = TEXTS / ((performance.now() - started) / 1000);

    for (let i = 0; i < TEXTS; i++) await enqueueSms(app.ctx, { userId: null, to: `+1${2000000000 + i}`, body: BODY, kind: 'help' });
    started = performance.now();
    let sent = 0;
    while (sent < TEXTS) {
      const summary = await sendDueMessages(app.ctx);
      if (summary.sent === 0) throw new Error(`only ${sent} of ${TEXTS} sent`);
      sent += summary.sent;
    }
    const rate = TEXTS / ((performance.now() - started) / 1000);
    console.log(`${'scenario'.padEnd(56)}${'texts/s'.padStart(10)}${'÷ bare'.padStart(10)}`);
    console.log(`${`bare POSTs to the fake Twilio, ${CONCURRENCY} at a time`.padEnd(56)}${bareRate.toFixed(0).padStart(10)}${'1.000'.padStart(10)}`);
    console.log(`${`outbound sender, ${TEXTS.toLocaleString('en-US')} queued texts`.padEnd(56)}${rate.toFixed(0).padStart(10)}${(rate / bareRate).toFixed(3).padStart(10)}`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function paced(url, twilio) {
  if (REMINDERS === 0) return;
  const database = await postgresDatabase('outbound');
  console.log(`\n${REMINDERS.toLocaleString('en-US')} reminders at SMS_SEND_RATE=${RATE}, ${INSTANCES} instances on one PostgreSQL`);
  if (database.skipped) return console.log(`  skipped: ${database.skipped}`);
  const { dataDir, env } = benchEnv({ ...twilioEnv(url, 'ACqueue'), DATABASE_URL: database.url, SMS_SEND_RATE: String(RATE) });
  const instances = [];
  try {
    // The reminders of a busy 20:00, queued as the reminder pass queues them (due a few ms apart).
    const { enqueueSmsBatch } = await appModule('src/server/sms/outbound.ts');
    const queuer = await loadApp(env);
    const due = Date.now() - 60_000;
    let started = performance.now();
    for (let i = 0; i < REMINDERS; i += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, REMINDERS - i) }, (_, j) => ({
        userId: null,
        to: `+1${3000000000 + i + j}`,
        body: BODY,
        kind: 'reminder',
        dedupeKey: `reminder:bench${i + j}:2026-11-25`,
        dueAt: new Date(due + i + j),
        expiresAt: new Date(due + 2 * 3_600_000),
      }));
      await enqueueSmsBatch(queuer.ctx, batch);
    }
    await queuer.close();
    console.log(`  queued in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    started = performance.timeOrigin + performance.now();
    for (let i = 0; i < INSTANCES; i++) {
      const instanceEnv = { ...env, ...twilioEnv(url, `ACinstance${i}`), DATABASE_URL: database.url, SMS_SEND_RATE: String(RATE), JOBS: 'on', DATA_DIR: `${dataDir}/i${i}` };
      const proc = fork(import.meta.filename, ['instance', JSON.stringify(instanceEnv)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      instances.push({ proc, ready: new Promise((resolve) => proc.once('message', resolve)) });
    }
    await Promise.all(instances.map((i) => i.ready));
    const arrivals = async () => new Promise((resolve) => {
      twilio.once('message', ({ arrivals }) => resolve(arrivals.filter(([, account]) => account.startsWith('ACinstance'))));
      twilio.send('arrivals');
    });
    if (ALL) {
      for (;;) {
        const got = await arrivals();
        if (got.length >= REMINDERS) break;
        await new Promise((resolve) => setTimeout(resolve, 5_000));
      }
    } else {
      await new Promise((resolve) => setTimeout(resolve, (WARM_UP_S + WINDOW_S + 1) * 1000));
    }
    report(await arrivals(), started);
  } finally {
    for (const { proc } of instances) proc.kill('SIGINT');
    await Promise.all(instances.map(({ proc }) => new Promise((resolve) => (proc.exitCode !== null ? resolve() : proc.once('exit', resolve)))));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The held rate over the window, its worst seconds and ten-second spans, and the time for all the reminders. */
function report(arrivals, started) {
  const first = Math.min(...arrivals.map(([at]) => at));
  const times = arrivals.map(([at]) => at - first).sort((a, b) => a - b);
  const from = WARM_UP_S * 1000;
  const to = ALL ? times.at(-1) : from + WINDOW_S * 1000;
  const inWindow = times.filter((t) => t >= from && t < to);
  const rate = inWindow.length / ((to - from) / 1000);
  const spans = (ms) => {
    const counts = [];
    for (let at = from; at + ms <= to; at += ms) counts.push(times.filter((t) => t >= at && t < at + ms).length / (ms / 1000));
    return counts;
  };
  const seconds = spans(1_000);
  const tens = spans(10_000);
  const off = (r) => `${(((r - RATE) / RATE) * 100).toFixed(1)} %`;
  const byInstance = new Map();
  for (const [, account] of arrivals) byInstance.set(account, (byInstance.get(account) ?? 0) + 1);
  console.log(`  first text at the fake ${((first - started) / 1000).toFixed(1)} s after the instances started`);
  console.log(`  texts sent by each instance: ${[...byInstance.entries()].sort().map(([, n]) => n.toLocaleString('en-US')).join(', ')}`);
  console.log(`${'  figure'.padEnd(58)}${'texts/s'.padStart(10)}${'÷ rate'.padStart(10)}`);
  const row = (name, value) => console.log(`${`  ${name}`.padEnd(58)}${value.toFixed(1).padStart(10)}${(value / RATE).toFixed(3).padStart(10)}`);
  row(`held over ${((to - from) / 1000).toFixed(0)} s (${inWindow.length.toLocaleString('en-US')} texts)`, rate);
  row('slowest ten seconds', Math.min(...tens));
  row('fastest ten seconds', Math.max(...tens));
  row('slowest second', Math.min(...seconds));
  row('fastest second', Math.max(...seconds));
  const total = ALL ? times.at(-1) / 1000 : REMINDERS / rate;
  const how = ALL ? 'first to last text at the fake' : `${REMINDERS.toLocaleString('en-US')} ÷ the rate held from second ${WARM_UP_S} to ${WARM_UP_S + WINDOW_S}`;
  console.log(`\n  ${REMINDERS.toLocaleString('en-US')} reminders ${ALL ? 'took' : 'take'} ${(total / 60).toFixed(1)} min (${total.toFixed(0)} s: ${how})`);
  console.log(`  held rate ${off(rate)} from ${RATE}/s; ten-second spans within ${off(Math.min(...tens))} … ${off(Math.max(...tens))}`);
}
