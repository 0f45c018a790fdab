import SQLite from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, uniquePhone } from '../test/factories';
import { enqueueSms, sendDueMessages } from './outbound';
import { redactProviderCopies } from './redact';
import { buildSmsTestApp, postTwilioWebhook, startFakeTwilio, textJournal, TWILIO_SID, type FakeTwilio, type SmsTestApp } from '../test/sms';

/** Every statement better-sqlite3 runs while `work` does, by SQL text (seen at the driver, unchanged). */
async function statementsRunBy(work: () => Promise<unknown>): Promise<Set<string>> {
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  const seen = new Set<string>();
  const originals = ['run', 'get', 'all', 'iterate'].map((name) => [name, proto[name]!] as const);
  for (const [name, original] of originals) {
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

// A backlog of 100,000 texts is worked through a batch at a time: each batch's statements must go
// straight to its rows, not read or sort the whole queue (SQLite, without statistics, may do either).
describe.skipIf(process.env.TEST_DATABASE_URL)('the outbound sender and the redaction job, on SQLite', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await buildSmsTestApp({ twilio, env: { SMS_SEND_RATE: '1000' } });
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  it('neither read nor sort a table whole', async () => {
    t.clock.set(new Date('2026-10-01T20:00:00Z'));
    const user = await buildUser(t);
    for (let i = 0; i < 30; i++) {
      await enqueueSms(t.ctx, { userId: null, to: uniquePhone(), body: 'Time to write.', kind: i % 3 ? 'reminder' : 'command_reply', dueAt: t.clock.now() });
    }
    await textJournal(t, user.phone, 'A quiet evening.');

    const statements = await statementsRunBy(async () => {
      t.clock.advance(1_000);
      expect((await sendDueMessages(t.ctx)).sent).toBe(30);
      await postTwilioWebhook(t, '/webhooks/twilio/status', { AccountSid: TWILIO_SID, MessageSid: twilio.sent[0]!.sid, MessageStatus: 'delivered' });
      expect((await redactProviderCopies(t.ctx)).redacted).toBe(2);
    });

    const plans: string[] = [];
    for (const sql of statements) {
      if (!/^(select|update|delete|insert|with)\b/i.test(sql) || !sql.includes('sms_')) continue;
      const parameters = Array.from(sql.match(/\?/g) ?? [], () => null);
      const steps = await t.ctx.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${sql}`, parameters));
      for (const { detail } of steps.rows) plans.push(`${detail}: ${sql.slice(0, 140)}`);
    }
    expect(plans.filter((step) => /^SCAN |TEMP B-TREE|\(direction=\?\):/.test(step))).toEqual([]);
  });
});
