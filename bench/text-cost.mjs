#!/usr/bin/env node
// What one journaled text costs, webhook and processing, in this process (no sockets, no other
// work): CPU per text (and, on PostgreSQL, the database's), and the statements and commits per text,
// counted at the driver. TEXTS users (default 500) each send a first text of the day, then a second;
// the webhooks are signed and go through the app's router (inject), and the inbound job processes
// them in its batches, as it does in production. BENCH_BEFORE=<checkout> measures that tree too, in
// the same run; BENCH_SQL_DETAIL=1 prints each statement with its count. BENCH_CPU_PROF=dir writes a
// CPU profile of the whole run there (node --cpu-prof).
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { countStatements, statementLines } from './statements.mjs';
import { appModule, appRoot, beforeTree, benchDatabases, cpuMeter, loadApp, median, postgresDatabase, benchDb, postgresBackendPids } from './support.mjs';

const TEXTS = Number(process.env.TEXTS ?? 500);
const WARMUP = 200;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COUNTED = 10;
process.env.USERS ??= String(WARMUP + TEXTS * ROUNDS + COUNTED);
const { DAYS, seedUsers, signedText, USERS, webhookEnv, WEBHOOK_PATH } = await import('./inbound-support.mjs');

/** Texts from users [from, from + count): signed webhooks through the router, then the job's batches. */
async function sendAndProcess(app, root, tag, from, count) {
  const { processInboundTexts } = await appModule('src/server/sms/inbound-job.ts', root);
  for (let i = 0; i < count; i++) {
    const { body, signature } = signedText(tag, from + i);
    const res = await app.inject({ method: 'POST', url: WEBHOOK_PATH, payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature } });
    if (res.statusCode !== 200) throw new Error(`webhook answered ${res.statusCode}`);
  }
  const run = await processInboundTexts(app.ctx);
  if (run.processed !== count || run.failed) throw new Error(`processed ${run.processed} of ${count}, ${run.failed} failed`);
}

/** CPU µs per text (this process; the database's backends on PostgreSQL) over `count` texts. */
async function cpuPerText(app, root, kind, db, tag, from, count) {
  const backends = kind === 'postgres' ? cpuMeter(await postgresBackendPids(db)) : null;
  const before = process.cpuUsage();
  await sendAndProcess(app, root, tag, from, count);
  const used = process.cpuUsage(before);
  return { app: (used.user + used.system) / count, db: backends ? (backends.stop() * 1e6) / count : 0 };
}

async function measure(tree, kind) {
  const pg = kind === 'postgres' ? await postgresDatabase(tree.label ? 'text_cost_before' : 'text_cost') : null;
  if (pg?.skipped) return { skipped: pg.skipped };
  const { dataDir, env } = webhookEnv(pg ? { DATABASE_URL: pg.url } : {});
  const app = await loadApp(env, tree.root);
  const db = pg ? await benchDb(pg.url) : null;
  try {
    await seedUsers(app, tree.root);
    // Each user's texts start with the first of the day; the router, JIT and caches warm on others'.
    await sendAndProcess(app, tree.root, 'w', 0, WARMUP);
    const first = [];
    const second = [];
    for (let round = 0; round < ROUNDS; round++) {
      const from = WARMUP + round * TEXTS;
      first.push(await cpuPerText(app, tree.root, kind, db, `f${round}`, from, TEXTS));
      second.push(await cpuPerText(app, tree.root, kind, db, `s${round}`, from, TEXTS));
    }
    // Statements: more users' first and second texts, counted whole (a batch's claim shared by its texts).
    const from = WARMUP + ROUNDS * TEXTS;
    const counted = [];
    for (const tag of ['c1', 'c2']) counted.push(await countStatements(kind, () => sendAndProcess(app, tree.root, tag, from, COUNTED)));
    return {
      cpu: {
        first: { app: median(first.map((c) => c.app)), db: median(first.map((c) => c.db)) },
        second: { app: median(second.map((c) => c.app)), db: median(second.map((c) => c.db)) },
      },
      statements: counted.map((c) => ({ count: c.count / COUNTED, commits: c.commits / COUNTED, detail: c.detail })),
    };
  } finally {
    await app.close();
    await db?.destroy();
    await pg?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const trees = [{ root: appRoot, label: '' }, ...(beforeTree() ? [beforeTree()] : [])];
console.log(`${TEXTS} texts a round, ${ROUNDS} rounds (medians), ${USERS.toLocaleString('en-US')} users with ${DAYS} entries each; load ${loadavg()[0].toFixed(2)}`);
for (const kind of benchDatabases) {
  for (const tree of trees) {
    const label = `${kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}${tree.label ? `, ${tree.label}` : ''}`;
    const r = await measure(tree, kind);
    if (r.skipped) {
      console.log(`${label}: skipped (${r.skipped})`);
      continue;
    }
    const cpu = (c) => `${c.app.toFixed(0)} µs${kind === 'postgres' ? ` + db ${c.db.toFixed(0)} µs` : ''}`;
    const st = (s) => `${s.count.toFixed(1)} statements, ${s.commits.toFixed(1)} commits`;
    console.log(`${label}`);
    console.log(`  first text of the day:  CPU ${cpu(r.cpu.first)}; ${st(r.statements[0])}`);
    console.log(`  second text, same day:  CPU ${cpu(r.cpu.second)}; ${st(r.statements[1])}`);
    if (process.env.BENCH_SQL_DETAIL) for (const s of r.statements) console.log(statementLines(s.detail).join('\n'), '\n');
  }
}
