import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { buildSmsTestApp, outboundTo, profileOf, type SmsTestApp } from '../test/sms';
import { smsTexts } from '../sms/texts';
import { bearer, buildUser, signIn, type BuildUserOptions, type TestUser } from '../test/factories';
import { promptForDay } from './prompts';
import { runReminderPass } from './service';

describe('reminders and weekly recaps', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** One pass as of an instant, with the app's clock there too. */
  const passAt = (instant: string, app: SmsTestApp = t) => {
    const at = new Date(instant);
    t.clock.set(at);
    return runReminderPass(app.ctx, at);
  };

  type Writer = TestUser;
  /** A fresh token as of the test clock's now (tokens are short-lived and the clock jumps). */
  const headersOf = async (user: Writer) => bearer(await signIn(t, user));

  /** An account created at `createdAt` (a verified phone and a fresh trial, unless told otherwise). */
  const writer = async (createdAt: string, options: BuildUserOptions = {}): Promise<Writer> => {
    t.clock.set(new Date(createdAt));
    return buildUser(t, options);
  };

  const patchProfile = async (user: Writer, changes: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'PATCH', url: '/api/profile', headers: await headersOf(user), payload: changes });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** A web entry written at `instant` (for the day it is then, or `entry_date`). */
  const write = async (user: Writer, instant: string, content: string, entryDate?: string) => {
    t.clock.set(new Date(instant));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/entries',
      headers: await headersOf(user),
      payload: { content, ...(entryDate && { entry_date: entryDate }) },
    });
    expect(res.statusCode, res.body).toBe(201);
  };

  /** Texts queued for the user, oldest first, with their bodies decrypted. */
  const textsTo = async (user: TestUser) =>
    (await outboundTo(t, user.phone)).map((row) => ({
      kind: row.kind,
      dedupeKey: row.dedupe_key,
      body: t.ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, row.body ?? ''),
    }));
  const reminderTexts = async (user: TestUser) => (await textsTo(user)).filter((m) => m.kind === 'reminder' || m.kind === 'nudge');

  it('texts each user at their own local reminder time, and not before', async () => {
    const ny = await writer('2026-11-18T12:00:00Z');
    const la = await writer('2026-11-18T12:00:00Z');
    const hi = await writer('2026-11-18T12:00:00Z');
    await patchProfile(la, { reminder_timezone: 'America/Los_Angeles', reminder_time: '21:00' });
    await patchProfile(hi, { reminder_timezone: 'Pacific/Honolulu', reminder_time: '07:15' });

    await passAt('2026-11-19T00:59:59Z'); // 19:59:59 in New York
    expect(await reminderTexts(ny)).toEqual([]);
    await passAt('2026-11-19T01:00:00Z'); // 20:00 in New York
    expect(await reminderTexts(ny)).toEqual([{ kind: 'reminder', dedupeKey: `reminder:${ny.id}:2026-11-18`, body: smsTexts.dailyPrompt(promptForDay('2026-11-18')) }]);
    expect(await reminderTexts(la)).toEqual([]);

    await passAt('2026-11-19T04:59:00Z'); // 20:59 in Los Angeles
    expect(await reminderTexts(la)).toEqual([]);
    await passAt('2026-11-19T05:00:30Z'); // 21:00:30, a pass half a minute late
    expect((await reminderTexts(la)).map((m) => m.dedupeKey)).toEqual([`reminder:${la.id}:2026-11-18`]);

    // 07:15 in Honolulu is 17:15 UTC on the 19th: the 19th there.
    expect(await reminderTexts(hi)).toEqual([]);
    await passAt('2026-11-19T17:15:00Z');
    expect((await reminderTexts(hi)).map((m) => m.dedupeKey)).toEqual([`reminder:${hi.id}:2026-11-19`]);
    expect(await reminderTexts(ny)).toHaveLength(1);
    expect(await reminderTexts(la)).toHaveLength(1);

    // The next evening each goes again, once.
    await passAt('2026-11-20T01:00:00Z');
    await passAt('2026-11-20T05:00:00Z');
    expect((await reminderTexts(ny)).map((m) => m.dedupeKey)).toEqual([`reminder:${ny.id}:2026-11-18`, `reminder:${ny.id}:2026-11-19`]);
    expect(await reminderTexts(la)).toHaveLength(2);
  });

  it('keeps to local time on the days the clocks change', async () => {
    const spring = await writer('2026-03-07T15:00:00Z');
    await passAt('2026-03-08T01:00:00Z'); // Saturday 20:00 EST
    expect((await reminderTexts(spring)).map((m) => m.dedupeKey)).toEqual([`reminder:${spring.id}:2026-03-07`]);
    // Sunday the 8th the clocks spring forward: 20:00 EDT is 00:00 UTC, an hour earlier than the day before.
    await passAt('2026-03-08T23:59:00Z');
    expect(await reminderTexts(spring)).toHaveLength(1);
    await passAt('2026-03-09T00:00:00Z');
    expect((await reminderTexts(spring)).map((m) => m.dedupeKey)).toContain(`reminder:${spring.id}:2026-03-08`);

    const fall = await writer('2026-10-31T15:00:00Z');
    await passAt('2026-11-01T00:00:00Z'); // Saturday 20:00 EDT
    expect(await reminderTexts(fall)).toHaveLength(1);
    // Sunday 1 November the clocks fall back: 20:00 EST is 01:00 UTC.
    await passAt('2026-11-02T00:00:00Z');
    expect(await reminderTexts(fall)).toHaveLength(1);
    await passAt('2026-11-02T01:00:00Z');
    expect((await reminderTexts(fall)).map((m) => m.dedupeKey)).toContain(`reminder:${fall.id}:2026-11-01`);
  });

  it('queues each reminder exactly once when passes and instances race', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => writer('2026-04-01T12:00:00Z')));
    t.clock.set(new Date('2026-04-01T12:00:00Z'));
    await passAt('2026-04-01T12:00:00Z'); // schedules them all for 20:00 EDT
    const second = await buildSmsTestApp({ sameDatabaseAs: t });
    try {
      const at = new Date('2026-04-02T00:00:00Z');
      t.clock.set(at);
      second.clock.set(at);
      const results = await Promise.all([runReminderPass(t.ctx, at), runReminderPass(second.ctx, at), runReminderPass(t.ctx, at), runReminderPass(second.ctx, at)]);
      for (const user of users) expect((await reminderTexts(user)).map((m) => m.dedupeKey)).toEqual([`reminder:${user.id}:2026-04-01`]);
      expect(results.reduce((sum, r) => sum + r.reminders, 0)).toBe(users.length);
      // And a later pass finds nothing more to do for them today.
      await passAt('2026-04-02T00:30:00Z');
      for (const user of users) expect(await reminderTexts(user)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('skips the reminder when the user already wrote today', async () => {
    const wrote = await writer('2026-05-04T12:00:00Z');
    await write(wrote, '2026-05-04T14:00:00Z', 'A good day at the lake.');
    const summary = await passAt('2026-05-05T00:00:00Z'); // 20:00 EDT on the 4th
    expect(await reminderTexts(wrote)).toEqual([]);
    expect(summary.skipped).toBeGreaterThanOrEqual(1);
    // The next day they have not written yet, and wrote yesterday: the usual reminder.
    await passAt('2026-05-06T00:00:00Z');
    expect((await reminderTexts(wrote)).map((m) => m.dedupeKey)).toEqual([`reminder:${wrote.id}:2026-05-05`]);
  });

  it('texts nobody without access, unverified, opted out or with reminders off', async () => {
    const control = await writer('2026-06-01T12:00:00Z');
    const expired = await writer('2026-06-01T12:00:00Z', { trialEnd: new Date('2026-06-01T18:00:00Z') });
    const unverified = await writer('2026-06-01T12:00:00Z', { verified: false });
    const optedOut = await writer('2026-06-01T12:00:00Z');
    const off = await writer('2026-06-01T12:00:00Z');
    await passAt('2026-06-01T16:00:00Z'); // all scheduled for 20:00 EDT
    await t.ctx.db.updateTable('profiles').set({ is_opted_out: 1 }).where('id', '=', optedOut.id).execute();
    await patchProfile(off, { reminder_enabled: false });

    await passAt('2026-06-02T00:00:00Z');
    expect(await reminderTexts(control)).toHaveLength(1);
    for (const user of [expired, unverified, optedOut, off]) expect(await reminderTexts(user)).toEqual([]);

    // Opting back in days later does not bring back a stale reminder at the wrong hour.
    await t.ctx.db.updateTable('profiles').set({ is_opted_out: 0 }).where('id', '=', optedOut.id).execute();
    await passAt('2026-06-04T15:00:00Z');
    expect(await reminderTexts(optedOut)).toEqual([]);
    expect((await profileOf(t, optedOut.id)).next_reminder_at).toBe('2026-06-05T00:00:00.000Z');
    await passAt('2026-06-05T00:00:00Z');
    // Nothing written on the 3rd: the nudge, at the usual time.
    expect((await reminderTexts(optedOut)).map((m) => m.dedupeKey)).toEqual([`nudge:${optedOut.id}:2026-06-04`]);
  });

  it('sends the day\'s prompt when prompts are on, else a plain reminder', async () => {
    const prompted = await writer('2026-07-10T12:00:00Z');
    const plain = await writer('2026-07-10T12:00:00Z');
    await patchProfile(plain, { prompts_enabled: false });
    await passAt('2026-07-11T00:00:00Z');
    await passAt('2026-07-12T00:00:00Z');
    // Both wrote nothing, but the account was not a day old on the 10th: no nudge on the 11th.
    expect((await reminderTexts(prompted)).map((m) => m.body)).toEqual([smsTexts.dailyPrompt(promptForDay('2026-07-10')), smsTexts.dailyPrompt(promptForDay('2026-07-11'))]);
    expect(promptForDay('2026-07-10')).not.toBe(promptForDay('2026-07-11'));
    expect((await reminderTexts(plain)).map((m) => m.body)).toEqual([smsTexts.dailyReminder(), smsTexts.dailyReminder()]);
  });

  it('nudges, once instead of the reminder, the day after a missed day', async () => {
    const missed = await writer('2026-08-01T12:00:00Z');
    const steady = await writer('2026-08-01T12:00:00Z');
    await write(missed, '2026-08-01T13:00:00Z', 'First day.');
    await write(steady, '2026-08-01T13:00:00Z', 'First day.');
    await write(steady, '2026-08-02T13:00:00Z', 'Second day.');
    await passAt('2026-08-03T00:00:00Z'); // the 2nd: missed has not written today, did yesterday
    await passAt('2026-08-04T00:00:00Z'); // the 3rd: missed skipped the 2nd
    expect(await reminderTexts(missed)).toEqual([
      { kind: 'reminder', dedupeKey: `reminder:${missed.id}:2026-08-02`, body: smsTexts.dailyPrompt(promptForDay('2026-08-02')) },
      { kind: 'nudge', dedupeKey: `nudge:${missed.id}:2026-08-03`, body: smsTexts.missedDayNudge() },
    ]);
    expect(smsTexts.missedDayNudge()).toMatch(/^Jotline: We missed you yesterday/);
    // steady wrote on the 2nd, so on the 3rd it is the usual prompt.
    expect((await reminderTexts(steady)).map((m) => m.dedupeKey)).toEqual([`reminder:${steady.id}:2026-08-03`]);
  });

  it('sends the weekly recap on Sunday at 18:00 local only, with numbers and never entry text', async () => {
    const recap = await writer('2026-11-16T12:00:00Z', { trialEnd: new Date('2026-12-31T00:00:00Z') });
    const noRecap = await writer('2026-11-16T12:00:00Z');
    await patchProfile(noRecap, { weekly_recap_enabled: false, reminder_enabled: false });
    const chicago = await writer('2026-11-16T12:00:00Z');
    await patchProfile(chicago, { reminder_timezone: 'America/Chicago', reminder_enabled: false });
    await write(recap, '2026-11-16T15:00:00Z', 'Last week, not counted.', '2026-11-15');
    await write(recap, '2026-11-17T15:00:00Z', 'secret pineapple plans for the weekend', '2026-11-17');
    await write(recap, '2026-11-20T15:00:00Z', 'pineapple again', '2026-11-20');
    await write(recap, '2026-11-21T15:00:00Z', 'one two three', '2026-11-21');
    await write(recap, '2026-11-22T15:00:00Z', 'and today too', '2026-11-22');
    await patchProfile(recap, { reminder_enabled: false });

    const recapsOf = async (user: TestUser) => (await textsTo(user)).filter((m) => m.kind === 'weekly_recap');
    await passAt('2026-11-21T23:00:00Z'); // Saturday 18:00 in New York
    await passAt('2026-11-22T22:59:00Z'); // Sunday 17:59
    expect(await recapsOf(recap)).toEqual([]);
    await passAt('2026-11-22T23:00:00Z'); // Sunday 18:00
    const [sent, ...more] = await recapsOf(recap);
    expect(more).toEqual([]);
    expect(sent!.dedupeKey).toBe(`recap:${recap.id}:2026-11-22`);
    expect(sent!.body).toBe(smsTexts.weeklyRecap({ entries: 4, days: 4, words: 6 + 2 + 3 + 3, streak: 3 }));
    expect(sent!.body).not.toMatch(/pineapple|weekend|today too/);
    expect(await recapsOf(noRecap)).toEqual([]);
    // Chicago's Sunday 18:00 is an hour later.
    expect(await recapsOf(chicago)).toEqual([]);
    await passAt('2026-11-23T00:00:00Z');
    expect((await recapsOf(chicago)).map((m) => m.body)).toEqual([smsTexts.weeklyRecap({ entries: 0, days: 0, words: 0, streak: 0 })]);
    expect(await recapsOf(recap)).toHaveLength(1);
    // The week after.
    await passAt('2026-11-29T23:00:00Z');
    expect((await recapsOf(recap)).map((m) => m.dedupeKey)).toEqual([`recap:${recap.id}:2026-11-22`, `recap:${recap.id}:2026-11-29`]);
  });

  it('reschedules when the reminder time changes in settings', async () => {
    const user = await writer('2026-09-14T12:00:00Z');
    await passAt('2026-09-14T16:00:00Z'); // noon EDT: scheduled for 20:00
    expect((await profileOf(t, user.id)).next_reminder_at).toBe('2026-09-15T00:00:00.000Z');
    await patchProfile(user, { reminder_time: '13:15' });
    expect((await profileOf(t, user.id)).next_reminder_at).toBeNull();
    await passAt('2026-09-14T17:14:00Z');
    expect(await reminderTexts(user)).toEqual([]);
    await passAt('2026-09-14T17:15:00Z'); // 13:15 EDT
    expect((await reminderTexts(user)).map((m) => m.dedupeKey)).toEqual([`reminder:${user.id}:2026-09-14`]);
    expect((await profileOf(t, user.id)).next_reminder_at).toBe('2026-09-15T17:15:00.000Z');
    // The old time passes quietly; and moving the time later the same day does not text twice.
    await passAt('2026-09-15T00:00:00Z');
    await patchProfile(user, { reminder_time: '21:00' });
    await passAt('2026-09-15T01:00:00Z');
    expect(await reminderTexts(user)).toHaveLength(1);
  });
});
