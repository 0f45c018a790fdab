#!/usr/bin/env node
// The reminder pass at scale, on SQLite: a pass over 1,000,000 profiles with none due (the pass
// that runs every minute, nearly always with nothing to do), then a slot where 10,000 are due.
// Figures beside a bare `SELECT 1` round trip through the same database in the same run.
// PROFILES and DUE override the sizes (e.g. PROFILES=100000 for a quick look).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { register } from 'tsx/esm/api';
import { median } from './support.mjs';

const PROFILES = Number(process.env.PROFILES ?? 1_000_000);
const DUE = Number(process.env.DUE ?? 10_000);
register();
const { sql } = await import('kysely');
const { loadConfig } = await import('../src/server/config.ts');
const { buildApp } = await import('../src/server/app.ts');
const { runReminderPass } = await import('../src/server/reminders/service.ts');

const dataDir = mkdtempSync(join(tmpdir(), 'jotline-bench-'));
const env = { NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: `sqlite:${join(dataDir, 'bench.db')}`, MASTER_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: 'silent', JOBS: 'off' };
const app = await buildApp(loadConfig(env), { serveWeb: false });
const db = app.ctx.db;
const at = new Date('2026-11-23T17:00:00Z');
const iso = at.toISOString();
async function timed(runs, fn) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

try {
  const started = performance.now();
  // Users and profiles made in the database itself: verified, in New York, due tomorrow. One in
  // three has reminders off, one in ten has opted out; their texts are not wanted, and never read.
  const numbers = sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${PROFILES})`;
  await sql`${numbers} insert into users (id, email, password_hash, is_admin, created_at, updated_at)
    select 'u' || i, 'u' || i || '@bench.test', 'x', 0, ${iso}, ${iso} from n`.execute(db);
  await sql`${numbers} insert into profiles (id, phone_number, phone_verified, timezone, created_at, is_opted_out, reminder_enabled,
      weekly_recap_enabled, next_reminder_at, next_recap_at, key_salt, updated_at)
    select 'u' || i, '+1' || (2000000000 + i), 1, 'America/New_York', ${iso}, case when i % 10 = 0 then 1 else 0 end,
      case when i % 3 = 0 then 0 else 1 end, 1,
      case when i % 3 = 0 then null else '2026-11-24T01:00:00.000Z' end, '2026-11-29T23:00:00.000Z', 'h1:AAAAAAAAAAAAAAAAAAAAAA==', ${iso}
    from n`.execute(db);
  await sql`analyze`.execute(db);
  console.log(`${PROFILES.toLocaleString('en-US')} profiles written in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

  const baseline = await timed(51, () => sql`select 1`.execute(db));
  const idle = await timed(21, () => runReminderPass(app.ctx, at));
  console.log(`${'scenario'.padEnd(52)}${'ms'.padStart(10)}${'× select 1'.padStart(14)}`);
  const row = (name, ms) => console.log(`${name.padEnd(52)}${ms.toFixed(2).padStart(10)}${(ms / baseline).toFixed(0).padStart(14)}`);
  row('bare SELECT 1 (median of 51)', baseline);
  row(`reminder pass, ${PROFILES.toLocaleString('en-US')} profiles, none due (median of 21)`, idle);

  // A slot where DUE profiles (with a running trial) are due at once.
  await sql`update profiles set next_reminder_at = ${new Date(at.getTime() - 60_000).toISOString()}
    where id in (select id from profiles where reminder_enabled = 1 and is_opted_out = 0 order by id limit ${DUE})`.execute(db);
  await sql`insert into subscribers (id, user_id, email, is_trial, trial_end, subscribed, created_at, updated_at)
    select 's' || id, id, id || '@bench.test', 1, '2026-12-01T00:00:00.000Z', 0, ${iso}, ${iso} from profiles
    where next_reminder_at < ${iso}`.execute(db);
  const slotStarted = performance.now();
  const summary = await runReminderPass(app.ctx, at);
  const slotMs = performance.now() - slotStarted;
  const queued = summary.reminders + summary.nudges;
  row(`reminder pass, ${DUE.toLocaleString('en-US')} due`, slotMs);
  console.log(`\n  ${queued.toLocaleString('en-US')} texts queued in ${(slotMs / 1000).toFixed(2)} s: ${Math.round(queued / (slotMs / 1000)).toLocaleString('en-US')} texts/s`);
  if (queued !== DUE) throw new Error(`expected ${DUE} texts, queued ${queued}`);
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
