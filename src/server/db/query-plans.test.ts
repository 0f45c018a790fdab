import SQLite from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { expirePendingSignUps } from '../auth/pending-sign-ups';
import { clearSignInLimits } from '../auth/sign-in-limits';
import { sweepRateLimitHits } from '../rate-limit';
import { runReminderPass } from '../reminders/service';
import { recordInboundText } from '../sms/inbound';
import { processInboundTexts } from '../sms/inbound-job';
import { buildSmsTestApp, JOURNAL_NUMBER, newMessageSid, type SmsTestApp } from '../test/sms';
import { buildTranscriptionTestApp, startFakeTranscriber } from '../test/transcription';
import { downloadCallRecordings } from '../voice/calls/download-job';
import { processTranscriptions } from '../voice/transcription/job';
import { apiClient, buildUser, signIn, signUpBody } from '../test/factories';

/** More rows than SQLite's planner guesses an equality on an index finds (ten). */
const USERS = 25;

/**
 * Every statement better-sqlite3 runs while `work` does, by SQL text. Observed at the driver's
 * statement methods; what runs is unchanged.
 */
async function statementsRunBy(work: () => Promise<unknown>): Promise<Set<string>> {
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  const seen = new Set<string>();
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = proto[name]!;
    originals.set(name, original);
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      seen.add(this.source);
      return original.apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    for (const [name, original] of originals) proto[name] = original;
  }
  return seen;
}

/** Each statement's plan as SQLite would run it now, step by step. */
async function plansOf(t: Pick<SmsTestApp, 'ctx'>, statements: Iterable<string>): Promise<Map<string, string[]>> {
  const plans = new Map<string, string[]>();
  for (const sql of statements) {
    if (!/^(select|update|delete|insert|with)\b/i.test(sql)) continue;
    const parameters = Array.from(sql.match(/\?/g) ?? [], () => null);
    const plan = await t.ctx.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${sql}`, parameters));
    plans.set(sql, plan.rows.map((step) => step.detail));
  }
  return plans;
}

/** Partial indexes that hold only a few rows by design (the unverified profiles): reading one whole is the point. */
const SMALL_INDEXES = ['profiles_unverified_idx'];

/**
 * The steps that read a whole table (or a whole index) rather than look rows up, or that look up by
 * `direction` alone: every inbound (or outbound) text ever.
 */
function wholeReads(plans: Map<string, string[]>): string[] {
  const whole = (step: string) =>
    (/^SCAN (?!\d+-ROW VALUES)/.test(step) && !SMALL_INDEXES.some((index) => step.endsWith(` INDEX ${index}`))) || step.endsWith('(direction=?)');
  return [...plans].flatMap(([sql, steps]) => steps.filter(whole).map((step) => `${step}: ${sql.slice(0, 160)}`));
}

// Batches of rows are updated by id (claims of texts and due times, schedules). SQLite's planner
// must take the primary key for them, not an index on another column of the statement that
// matches every inbound text ever received or every unscheduled profile: each batch would grow
// with the table.
describe.skipIf(process.env.TEST_DATABASE_URL)('statements of the busy paths, on SQLite', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('a reminder pass, a batch of texts, the sign-up expiry and the rate-limit sweep read no table whole; updates by id go by primary key', async () => {
    t.clock.set(new Date('2026-03-02T12:00:00Z'));
    const users = [];
    for (let i = 0; i < USERS; i++) users.push(await buildUser(t));
    const texts: string[] = [];
    for (const user of users) texts.push((await recordInboundText(t.ctx, { messageSid: newMessageSid(), from: user.phone, to: JOURNAL_NUMBER, body: 'A walk.', media: [] })).id);
    // And one from a number without an account (asked whether it last texted STOP).
    texts.push((await recordInboundText(t.ctx, { messageSid: newMessageSid(), from: '+15555550123', to: JOURNAL_NUMBER, body: 'Hello?', media: [] })).id);

    const statements = await statementsRunBy(async () => {
      // Schedules every profile, then finds them all due at their reminder time and claims the due times.
      await runReminderPass(t.ctx, t.clock.now());
      const { due_at } = await t.ctx.db.selectFrom('profiles').select((eb) => eb.fn.max('next_reminder_at').as('due_at')).executeTakeFirstOrThrow();
      t.clock.set(new Date(Date.parse(due_at!) + 60_000));
      const due = await runReminderPass(t.ctx, t.clock.now());
      expect(due.reminders).toBe(USERS);
      // Claims the texts in a batch.
      expect(await processInboundTexts(t.ctx)).toEqual({ processed: texts.length, failed: 0 });
      // The minute job that removes lapsed sign-ups, and the job that forgets day-old rate-limit hits.
      await expirePendingSignUps(t.ctx);
      await sweepRateLimitHits(t.ctx);
    });

    const plans = await plansOf(t, statements);
    expect(wholeReads(plans)).toEqual([]);
    // Every update that names its rows by id (a list, one id, or pairs of id and value).
    const byIds = [...plans].filter(([sql]) => /^update "\w+" set .* where .*"id" (in \(|= \?)/i.test(sql));
    expect(new Set(byIds.map(([sql]) => /^update "(\w+)"/i.exec(sql)![1]))).toEqual(new Set(['journal_entries', 'profiles', 'sms_messages']));
    for (const [sql, steps] of byIds) {
      const table = /^update "(\w+)"/i.exec(sql)![1];
      expect(steps, sql.slice(0, 120)).toEqual([`SEARCH ${table} USING INDEX sqlite_autoindex_${table}_1 (id=?)`]);
    }
  });

  it('signing up, in and out of locks reads no table whole', async () => {
    const users = [];
    for (let i = 0; i < USERS; i++) users.push(await buildUser(t));
    const newcomer = signUpBody();
    const existing = users[0]!;

    const statements = await statementsRunBy(async () => {
      // A sign-up (which first clears pending sign-ups holding its address or number), then a
      // sign-in with a wrong password and a right one (which forgives the failed attempt).
      expect((await apiClient(t).post('/api/auth/signup', newcomer)).status).toBe(200);
      const client = apiClient(t);
      const refused = await client.post('/api/auth/token', { grant_type: 'password', email: existing.email, password: 'not-the-password' });
      expect(refused.body.error.message).toBe(messages.signIn.invalidLoginCredentials);
      expect((await client.post('/api/auth/token', { grant_type: 'password', email: existing.email, password: existing.password })).status).toBe(200);
      // What a texted sign-in link and a password reset do: lift every lock on the account.
      await clearSignInLimits(t.ctx, existing.id);
    });

    expect(wholeReads(await plansOf(t, statements))).toEqual([]);
  });

  it('writing, opening and searching the journal reads no table whole', async () => {
    const writer = await buildUser(t);
    for (let i = 0; i < USERS; i++) await buildUser(t);
    const token = await signIn(t, writer);
    const client = apiClient(t);

    const statements = await statementsRunBy(async () => {
      const created = await client.post('/api/entries', { content: 'A walk by the river.' }, token);
      expect(created.status).toBe(201);
      expect((await client.patch(`/api/entries/${created.body.id}`, { content: 'A long walk by the river.' }, token)).status).toBe(200);
      expect((await client.get('/api/entries', token)).body.entries).toHaveLength(1);
      expect((await client.get('/api/entries?q=river', token)).body.entries).toHaveLength(1);
      expect((await client.get('/api/stats', token)).status).toBe(200);
    });

    expect(wholeReads(await plansOf(t, statements))).toEqual([]);
  });

  it('the voice jobs claim their next recording without reading a table whole', async () => {
    const fake = await startFakeTranscriber();
    const voice = await buildTranscriptionTestApp({ fake });
    try {
      const statements = await statementsRunBy(async () => {
        await processTranscriptions(voice.ctx);
        await downloadCallRecordings(voice.ctx);
      });
      expect([...statements].some((sql) => /journal_recordings/.test(sql))).toBe(true);
      expect([...statements].some((sql) => /voice_calls/.test(sql))).toBe(true);
      expect(wholeReads(await plansOf(voice, statements))).toEqual([]);
    } finally {
      await voice.close();
      await fake.close();
    }
  });
});
