#!/usr/bin/env node
// How fast queued texts go out: TEXTS texts (default 5,000) queued, then sent by the outbound sender
// to a fake Twilio in another process, beside the same number of bare POSTs to that fake made
// straight from this process with the same concurrency (the baseline, in the same run).
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { register } from 'tsx/esm/api';
import { benchEnv } from './support.mjs';

const TEXTS = Number(process.env.TEXTS ?? 5_000);
const CONCURRENCY = 24;

if (process.argv[2] === 'twilio') {
  // Twilio's Messages endpoint as far as the sender needs it: 201 with a sid and "queued".
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `SM${(++n).toString(16).padStart(32, '0')}`, status: 'queued' })));
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else {
  const twilio = fork(import.meta.filename, ['twilio'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise((resolve) => twilio.once('message', ({ port }) => resolve(`http://127.0.0.1:${port}`)));
  register();
  const { loadConfig } = await import('../src/server/config.ts');
  const { buildApp } = await import('../src/server/app.ts');
  const { enqueueSms, sendDueMessages } = await import('../src/server/sms/outbound.ts');
  const { dataDir, env } = benchEnv({
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: 'ACbench',
    TWILIO_AUTH_TOKEN: 'bench-token',
    TWILIO_FROM: '+15555550100',
    TWILIO_API_URL: url,
  });
  const app = await buildApp(loadConfig(env), { serveWeb: false });
  try {
    // Baseline: the same number of form POSTs to the fake, CONCURRENCY at a time.
    let next = 0;
    const post = async () => {
      while (next++ < TEXTS) {
        const res = await fetch(`${url}/2010-04-01/Accounts/ACbench/Messages.json`, { method: 'POST', body: new URLSearchParams({ To: '+15555550123', From: '+15555550100', Body: 'Jotline: Time to write.' }) });
        await res.arrayBuffer();
      }
    };
    let started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, post));
    const bareRate = TEXTS / ((performance.now() - started) / 1000);

    for (let i = 0; i < TEXTS; i++) {
      await enqueueSms(app.ctx, { userId: null, to: `+1${2000000000 + i}`, body: 'Jotline: Time to write. How was your day? Text back to add it to your journal. Reply STOP to opt out.', kind: 'help' });
    }
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
    twilio.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
