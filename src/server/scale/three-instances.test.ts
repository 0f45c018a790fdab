import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, sleep, until } from '../test/processes';
import { hashPassword } from '../auth/passwords';
import { createAccount } from '../auth/sign-up';
import {
  buildSmsTestApp,
  serveEnv,
  JOURNAL_NUMBER,
  PUBLIC_URL,
  startFakeTwilio,
  TWILIO_SID,
  twilioSignature,
  type FakeTwilio,
  type SmsTestApp,
} from '../test/sms';

const USERS = 1_000;
/** Every fifth user texts twice; every tenth text is delivered twice by "Twilio", to another instance. */
const secondTextOf = (i: number) => i % 5 === 0;
const deliveredTwice = (i: number) => i % 10 === 3;
/**
 * Whose journals are decrypted and read: every user with two texts or a redelivered one, and a
 * spread of the rest (each first read derives the user's key, about 20 ms, so not all 1,000 in CI).
 */
const readBack = (i: number) => secondTextOf(i) || deliveredTwice(i) || i % 7 === 0;



/** Runs `work` over `items` with at most `limit` at a time. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

interface Instance {
  process: ChildProcess;
  url: string;
  output: string;
}

// Three real `jotline serve` processes on one PostgreSQL database, each running every background job,
// as production runs them. Realtime, claims and sweeps are exercised for real; only Twilio is a fake.
describe.runIf(process.env.TEST_DATABASE_URL)('three instances on one PostgreSQL database', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  let dataDir: string;
  const instances: Instance[] = [];
  const users: Array<{ id: string; phone: string }> = [];

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    // Creates the database and schema, and reads the journals afterwards (its own jobs are off).
    t = await buildSmsTestApp({ twilio });
    dataDir = mkdtempSync(join(tmpdir(), 'jotline-scale-'));

    // 1,000 verified users on a trial, every daily reminder due in the same minute.
    const passwordHash = await hashPassword('Journal123');
    const indexes = Array.from({ length: USERS }, (_, i) => i);
    await pool(indexes, 10, async (i) => {
      const phone = `+1512${String(2_000_000 + i).padStart(7, '0')}`;
      const id = await createAccount(t.ctx.db, t.clock, { email: `scale-${i}@example.com`, phone, passwordHash, timezone: 'America/Chicago', phoneVerified: true });
      users[i] = { id, phone };
    });
    const now = Date.now();
    await t.ctx.db
      .updateTable('profiles')
      .set({
        reminder_enabled: 1,
        prompts_enabled: 0,
        weekly_recap_enabled: 0,
        next_reminder_at: new Date(now - 60_000).toISOString(),
        next_recap_at: new Date(now + 7 * 86_400_000).toISOString(),
      })
      .execute();

    const env = serveEnv(t, twilio);
    for (let n = 0; n < 3; n++) {
      const port = await freePort();
      const child = spawn(process.execPath, [resolve('bin/jotline.mjs'), 'serve'], {
        env: { ...env, PORT: String(port), DATA_DIR: join(dataDir, `instance-${n}`) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const instance: Instance = { process: child, url: `http://127.0.0.1:${port}`, output: '' };
      child.stdout!.on('data', (chunk) => (instance.output += chunk));
      child.stderr!.on('data', (chunk) => (instance.output += chunk));
      instances.push(instance);
    }
    for (const instance of instances) {
      await until(`${instance.url} to answer`, () => fetch(`${instance.url}/healthz`).then((r) => r.ok, () => false), 60_000).catch((err) => {
        throw new Error(`${err.message}\n${instance.output}`);
      });
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      instances.map(
        (instance) =>
          new Promise<void>((done) => {
            if (instance.process.exitCode !== null) return done();
            instance.process.once('exit', () => done());
            instance.process.kill('SIGTERM');
            setTimeout(() => instance.process.kill('SIGKILL'), 25_000).unref();
          }),
      ),
    );
    await t?.close();
    await twilio?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('texts each of 1,000 users one reminder for a shared slot, and puts every text of a burst in exactly one entry', async () => {
    const phaseStarted = Date.now();
    // The three schedulers race for the same 1,000 due reminders, then their senders race for the texts.
    await until('1,000 reminders sent', () => twilio.sent.length >= USERS, 90_000);
    await sleep(2_000); // a late duplicate would show up by now
    expect(twilio.sent).toHaveLength(USERS);
    const perPhone = new Map<string, number>();
    for (const text of twilio.sent) perPhone.set(text.to, (perPhone.get(text.to) ?? 0) + 1);
    expect(users.every((u) => perPhone.get(u.phone) === 1)).toBe(true);
    const reminderRows = await t.ctx.db
      .selectFrom('sms_messages')
      .select(['user_id', 'kind', 'status'])
      .where('direction', '=', 'outbound')
      .execute();
    expect(reminderRows).toHaveLength(USERS);
    expect(new Set(reminderRows.map((r) => r.user_id)).size).toBe(USERS);
    expect(reminderRows.every((r) => r.kind === 'reminder' && r.status === 'queued')).toBe(true);

    // Now everyone writes back at once, spread over the instances; some texts arrive twice.
    const texts: Array<{ user: number; sid: string; body: string }> = [];
    users.forEach((_, i) => {
      texts.push({ user: i, sid: `SM${'a'.repeat(20)}${String(i).padStart(12, '0')}`, body: `Day note ${i}: the tide was out` });
      if (secondTextOf(i)) texts.push({ user: i, sid: `SM${'b'.repeat(20)}${String(i).padStart(12, '0')}`, body: `Later, ${i}: rain again` });
    });
    const deliveries = texts.flatMap((text, n) => {
      const first = { text, instance: instances[n % 3]! };
      return deliveredTwice(text.user) && text.sid.startsWith('SMa') ? [first, { text, instance: instances[(n + 1) % 3]! }] : [first];
    });
    const remindersMs = Date.now() - phaseStarted;
    const started = Date.now();
    await pool(deliveries, 24, async ({ text, instance }) => {
      const params = { MessageSid: text.sid, AccountSid: TWILIO_SID, From: users[text.user]!.phone, To: JOURNAL_NUMBER, Body: text.body, NumMedia: '0' };
      const path = '/webhooks/twilio/sms';
      const res = await fetch(`${instance.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(`${PUBLIC_URL}${path}`, params) },
        body: new URLSearchParams(params).toString(),
      });
      expect(res.status).toBe(200);
    });
    const acknowledgedMs = Date.now() - started;

    const unprocessed = () =>
      t.ctx.db
        .selectFrom('sms_messages')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('direction', '=', 'inbound')
        .where('processed', '=', 0)
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    await until('every text processed', async () => (await unprocessed()) === 0, 90_000);
    const processedMs = Date.now() - started;

    // One row per MessageSid (duplicates acknowledged, not recorded twice), each in one entry.
    const inbound = await t.ctx.db
      .selectFrom('sms_messages')
      .select(['id', 'provider_message_id', 'kind', 'entry_id', 'user_id'])
      .where('direction', '=', 'inbound')
      .execute();
    expect(inbound).toHaveLength(texts.length);
    expect(new Set(inbound.map((r) => r.provider_message_id)).size).toBe(texts.length);
    expect(inbound.every((r) => r.kind === 'journal' && r.entry_id)).toBe(true);
    const applied = await t.ctx.db.selectFrom('journal_sms_applied').select(['message_id', 'entry_id']).execute();
    expect(applied).toHaveLength(texts.length);
    const entryOf = new Map(inbound.map((r) => [r.provider_message_id!, r.entry_id!]));

    // Every text recorded as applied once, to the entry its row names.
    const rowById = new Map(inbound.map((r) => [r.id, r]));
    expect(applied.every((a) => rowById.get(a.message_id)?.entry_id === a.entry_id)).toBe(true);

    // The journals themselves, decrypted: every text once, in its own entry and no other.
    for (const text of texts.filter((t) => readBack(t.user))) {
      const user = users[text.user]!;
      const journal = await t.ctx.journalCache.entries(user.id);
      const holding = journal.filter((entry) => entry.content.includes(text.body));
      expect(holding.map((entry) => entry.id), text.sid).toEqual([entryOf.get(text.sid)]);
      expect(holding[0]!.content.split(text.body)).toHaveLength(2);
    }
    console.log(
      `three instances: ${USERS} reminders sent once each in ${remindersMs} ms; ${deliveries.length} webhook deliveries (${texts.length} texts) ` +
        `acknowledged in ${acknowledgedMs} ms, all processed in ${processedMs} ms`,
    );
  }, 240_000);
});
