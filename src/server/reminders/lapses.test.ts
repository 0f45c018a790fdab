import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { addDays } from '../journal/dates';
import { buildSmsTestApp, outboundTo, profileOf, type SmsTestApp } from '../test/sms';
import { smsTexts } from '../sms/texts';
import { bearer, buildUser, signIn, type TestUser } from '../test/factories';
import { runReminderPass } from './service';

// Reminders over a long silence, a crash in the middle of a pass, and due times nobody will get.
// Every user here is in New York with the default 20:00 reminder, so the pass at 01:00 UTC in
// winter (00:00 UTC in summer) is the reminder time of the day before, in UTC terms.
describe('reminders over a lapse, a crash and turned-off texts', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  const passAt = (instant: string) => {
    const at = new Date(instant);
    t.clock.set(at);
    return runReminderPass(t.ctx, at);
  };
  /** The evening pass of a local (New York, winter) day. */
  const eveningOf = (day: string) => passAt(`${addDays(day, 1)}T01:00:00Z`);
  const dailyTexts = async (user: TestUser) =>
    (await outboundTo(t, user.phone))
      .filter((m) => m.kind === 'reminder' || m.kind === 'nudge')
      .map((m) => ({ day: m.dedupe_key!.split(':')[2], kind: m.kind, body: t.ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, m.body ?? '') }));
  const write = async (user: TestUser, day: string) => {
    t.clock.set(new Date(`${day}T17:00:00Z`));
    const res = await t.app.inject({ method: 'POST', url: '/api/entries', headers: bearer(await signIn(t, user)), payload: { content: `Noon on ${day}.` } });
    expect(res.statusCode, res.body).toBe(201);
  };

  it('nudges once a lapse, reminds through the first week, then nudges weekly, then goes quiet until they write', async () => {
    t.clock.set(new Date('2026-01-05T15:00:00Z'));
    const user = await buildUser(t, { timezone: 'America/New_York', trialEnd: new Date('2027-01-01T00:00:00Z') });
    await write(user, '2026-01-05');
    for (let day = '2026-01-05'; day <= '2026-02-20'; day = addDays(day, 1)) {
      if (day === '2026-02-14') await write(user, day); // back after 40 days
      await eveningOf(day);
    }
    const texts = await dailyTexts(user);
    const kindOn = new Map(texts.map((m) => [m.day, m.kind]));
    expect(kindOn.has('2026-01-05')).toBe(false); // wrote that day
    expect(kindOn.get('2026-01-06')).toBe('reminder'); // one day quiet
    expect(kindOn.get('2026-01-07')).toBe('nudge'); // the day after a missed day: once
    for (let day = '2026-01-08'; day <= '2026-01-12'; day = addDays(day, 1)) expect(kindOn.get(day), day).toBe('reminder');
    // After a week: one gentle text a week, a week after the last nudge.
    const weekly = texts.filter((m) => m.day! > '2026-01-12' && m.day! < '2026-02-14');
    expect(weekly.map((m) => m.day)).toEqual(['2026-01-14', '2026-01-21', '2026-01-28', '2026-02-04']);
    expect(weekly.every((m) => m.kind === 'nudge' && m.body === smsTexts.weeklyNudge())).toBe(true);
    expect(texts.find((m) => m.day === '2026-01-07')!.body).toBe(smsTexts.missedDayNudge());
    // After a month, nothing; writing again brings the evening reminder back.
    expect(kindOn.has('2026-02-14')).toBe(false);
    expect(kindOn.get('2026-02-15')).toBe('reminder');
    expect(kindOn.get('2026-02-16')).toBe('nudge'); // a new lapse, a new nudge
    expect(texts.filter((m) => m.day === '2026-02-16')).toHaveLength(1);
  });

  it('loses no reminder and sends none twice when a pass dies between queueing and claiming', async () => {
    t.clock.set(new Date('2026-03-02T15:00:00Z'));
    const users = await Promise.all(Array.from({ length: 3 }, () => buildUser(t, { timezone: 'America/New_York' })));
    await passAt('2026-03-02T16:00:00Z'); // scheduled for 20:00 EST
    // The database refuses to move any due time, as if the process died right after queueing.
    const crash = t.ctx.dbKind === 'sqlite'
      ? [sql`CREATE TRIGGER crash_claims BEFORE UPDATE OF next_reminder_at ON profiles BEGIN SELECT RAISE(ABORT, 'crashed'); END`]
      : [
          sql`CREATE FUNCTION crash_claims() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'crashed'; END $$ LANGUAGE plpgsql`,
          sql`CREATE TRIGGER crash_claims BEFORE UPDATE OF next_reminder_at ON profiles FOR EACH ROW EXECUTE FUNCTION crash_claims()`,
        ];
    for (const statement of crash) await statement.execute(t.ctx.db);
    try {
      await expect(passAt('2026-03-03T01:00:00Z')).rejects.toThrow(/crashed/);
    } finally {
      await sql`DROP TRIGGER crash_claims${t.ctx.dbKind === 'sqlite' ? sql`` : sql` ON profiles`}`.execute(t.ctx.db);
      if (t.ctx.dbKind !== 'sqlite') await sql`DROP FUNCTION crash_claims()`.execute(t.ctx.db);
    }
    for (const user of users) {
      expect((await dailyTexts(user)).map((m) => m.day)).toEqual(['2026-03-02']); // queued before the crash
      expect((await profileOf(t, user.id)).next_reminder_at).toBe('2026-03-03T01:00:00.000Z'); // still due
    }
    // The next pass (a minute later, on any instance) moves the due times on without a second text.
    const summary = await passAt('2026-03-03T01:01:00Z');
    expect(summary.reminders).toBe(0);
    for (const user of users) {
      expect(await dailyTexts(user)).toHaveLength(1);
      expect((await profileOf(t, user.id)).next_reminder_at).toBe('2026-03-04T01:00:00.000Z');
    }
  });

  it('lets go of due times nobody will get, and schedules them afresh when texts come back on', async () => {
    t.clock.set(new Date('2026-04-06T15:00:00Z'));
    const off = await buildUser(t, { timezone: 'America/New_York' });
    const optedOut = await buildUser(t, { timezone: 'America/New_York' });
    await passAt('2026-04-06T16:00:00Z');
    const headers = bearer(await signIn(t, off));
    await t.app.inject({ method: 'PATCH', url: '/api/profile', headers, payload: { weekly_recap_enabled: false } });
    await t.ctx.db.updateTable('profiles').set({ reminder_enabled: 0 }).where('id', '=', off.id).execute();
    await t.ctx.db.updateTable('profiles').set({ is_opted_out: 1 }).where('id', '=', optedOut.id).execute();
    await passAt('2026-04-07T00:00:00Z'); // their reminder time passes
    await passAt('2026-04-12T23:00:00Z'); // and Sunday 18:00, the recap's
    expect(await profileOf(t, off.id)).toMatchObject({ next_reminder_at: null, next_recap_at: null });
    expect(await profileOf(t, optedOut.id)).toMatchObject({ next_reminder_at: null, next_recap_at: null });
    expect(await dailyTexts(off)).toEqual([]);

    await t.app.inject({ method: 'PATCH', url: '/api/profile', headers: bearer(await signIn(t, off)), payload: { reminder_enabled: true } });
    await t.ctx.db.updateTable('profiles').set({ is_opted_out: 0 }).where('id', '=', optedOut.id).execute();
    await passAt('2026-04-13T12:00:00Z');
    expect(await profileOf(t, off.id)).toMatchObject({ next_reminder_at: '2026-04-14T00:00:00.000Z', next_recap_at: null });
    expect(await profileOf(t, optedOut.id)).toMatchObject({ next_reminder_at: '2026-04-14T00:00:00.000Z', next_recap_at: '2026-04-19T22:00:00.000Z' });
  });
});
