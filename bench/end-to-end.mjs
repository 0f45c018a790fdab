// End to end, sustained: signed webhooks sent at a fixed rate (open loop: each text leaves at its
// time whatever the answers before it), stepping up the rate, and each text followed from the
// moment it was due to be sent to its row marked processed (written in the journal's transaction).
// A rate holds when every text is acknowledged, the sender kept the rate, and what is waiting to be
// processed stays bounded: at the step's end, at most two seconds of texts (the p99 target), where
// processing slower than the rate leaves a backlog that grows all through the step.
import { request, Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { inboundRowsSince, signedText, unprocessedSince, WEBHOOK_PATH } from './inbound-support.mjs';
import { cpuMeter, cpuSecondsOfAll, quantile } from './support.mjs';

// 100/s is the evening peak of 100,000 users; 1,000/s the target, ten times that.
export const RATES = (process.env.BENCH_RATES ?? '100,250,500,1000,1500,2000').split(',').map(Number);
export const STEP_S = Number(process.env.BENCH_STEP_SECONDS ?? 10);
/** How long texts may take to be processed after a step before they count as lost. */
const DRAIN_LIMIT_S = 60;
const SOCKETS = 64;
const now = () => performance.timeOrigin + performance.now();

function post(agent, url, text) {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(text.body), 'x-twilio-signature': text.signature } }, (res) => {
      res.resume().on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(0));
    req.end(text.body);
  });
}

/**
 * Sends `rate` texts a second for `seconds` to `baseUrl`; resolves with each text's MessageSid, the
 * time it was due, its answer's status and how long after it was due the answer came.
 */
export async function pacedLoad(baseUrl, rate, seconds, tag) {
  const agent = new Agent({ keepAlive: true, maxSockets: SOCKETS });
  const url = `${baseUrl}${WEBHOOK_PATH}`;
  const total = Math.round(rate * seconds);
  const texts = [];
  const answers = [];
  const start = now() + 50;
  let lastSentAt = start;
  for (let i = 0; i < total; ) {
    const due = Math.min(total, Math.floor(((now() - start) * rate) / 1000) + 1);
    for (; i < due; i++) {
      const text = signedText(tag, i);
      const record = { sid: text.sid, due: start + (i * 1000) / rate, status: 0, ackMs: Infinity };
      texts.push(record);
      lastSentAt = now();
      answers.push(post(agent, url, text).then((status) => Object.assign(record, { status, ackMs: now() - record.due })));
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(answers);
  agent.destroy();
  return { texts, sentSeconds: (lastSentAt - start) / 1000 };
}

/**
 * One step against `target` ({ url, pids, dbPids? } and `db`, the benchmark's own connection): the
 * paced load, then waiting until every text is processed; the figures of the step.
 */
export async function step(target, rate, tag) {
  const since = new Date(Date.now() - 1000).toISOString();
  const appCpu = cpuSecondsOfAll(target.pids);
  const dbCpu = target.dbPids ? cpuMeter(await target.dbPids()) : null;
  const { texts, sentSeconds } = await pacedLoad(target.url, rate, STEP_S, tag);
  const stopped = now();
  const bySid = new Map(texts.map((t) => [t.sid, t]));
  // Waits for the step's texts to be processed (each row records when it was), then reads them.
  while (now() - stopped < DRAIN_LIMIT_S * 1000 && (await unprocessedSince(target.db, since)) > 0) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const rows = (await inboundRowsSince(target.db, since)).filter((r) => bySid.has(r.sid));
  const cpuSeconds = cpuSecondsOfAll(target.pids) - appCpu;
  const dbSeconds = dbCpu?.stop() ?? 0;
  const processedAt = rows.filter((r) => r.processed).map((r) => r.at);
  const latencies = rows.filter((r) => r.processed).map((r) => r.at - bySid.get(r.sid).due).sort((a, b) => a - b);
  const acks = texts.map((t) => t.ackMs).sort((a, b) => a - b);
  const start = texts[0].due;
  const end = start + STEP_S * 1000;
  // Waiting at the step's end: acknowledged by then, not yet processed.
  const waitingAtEnd = texts.filter((t) => t.due + t.ackMs <= end).length - processedAt.filter((at) => at <= end).length;
  const waitingMax = Math.max(0, ...Array.from({ length: STEP_S * 4 }, (_, k) => start + (k + 1) * 250).map((t) => texts.filter((x) => x.due + x.ackMs <= t).length - processedAt.filter((at) => at <= t).length));
  const answered = texts.filter((t) => t.status === 200).length;
  const lost = texts.length - latencies.length;
  const onRate = sentSeconds <= STEP_S * 1.05;
  const holds = answered === texts.length && onRate && lost === 0 && waitingAtEnd <= 2 * rate;
  return {
    rate,
    texts: texts.length,
    answered,
    sentRate: (texts.length - 1) / sentSeconds,
    ackP50: quantile(acks, 0.5),
    ackP99: quantile(acks, 0.99),
    p50: latencies.length ? quantile(latencies, 0.5) : null,
    p99: lost ? Infinity : quantile(latencies, 0.99),
    waitingAtEnd,
    waitingMax,
    drainS: processedAt.length ? (Math.max(...processedAt) - end) / 1000 : null,
    lost,
    cpuUs: (cpuSeconds * 1e6) / texts.length,
    dbUs: (dbSeconds * 1e6) / texts.length,
    holds,
  };
}

/** Steps through RATES until one does not hold; the steps' figures. */
export async function sustainedSteps(target, tag) {
  const steps = [];
  for (const [i, rate] of RATES.entries()) {
    const result = await step(target, rate, `${tag}${i}`);
    steps.push(result);
    if (!result.holds) break;
  }
  return steps;
}

/** The table of one configuration's steps. */
export function stepLines(label, steps) {
  const ms = (v) => (v === null ? 'n/a' : v === Infinity ? 'lost' : v >= 10_000 ? `${(v / 1000).toFixed(0)} s` : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${v.toFixed(0)} ms`);
  const lines = [label];
  for (const s of steps) {
    lines.push(
      `  ${String(s.rate).padStart(5)}/s  sent ${s.sentRate.toFixed(0).padStart(5)}/s  ack p50 ${ms(s.ackP50).padStart(6)} p99 ${ms(s.ackP99).padStart(6)}` +
        `  → journal p50 ${ms(s.p50).padStart(6)} p99 ${ms(s.p99).padStart(6)}  waiting max ${String(s.waitingMax).padStart(6)}, at end ${String(s.waitingAtEnd).padStart(6)}` +
        `  CPU/text ${s.cpuUs.toFixed(0).padStart(5)} µs${s.dbUs ? ` + db ${s.dbUs.toFixed(0)} µs` : ''}  ${s.holds ? 'holds' : `does not hold${s.answered < s.texts ? ` (${s.texts - s.answered} not acknowledged)` : ''}${s.lost ? ` (${s.lost} not processed within ${DRAIN_LIMIT_S} s)` : ''}`}`,
    );
  }
  const held = steps.filter((s) => s.holds);
  const best = held.at(-1);
  lines.push(`  highest rate that holds: ${best ? `${best.rate}/s, webhook → journal p50 ${ms(best.p50)}, p99 ${ms(best.p99)}` : `none of ${RATES.join(', ')}/s`}`);
  return { lines, best };
}
