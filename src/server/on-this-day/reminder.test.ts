import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { SYSTEM_SUBJECT } from '../crypto/encryption';
import { runReminderPass } from '../reminders/service';
import { promptForDay } from '../reminders/prompts';
import { buildSmsTestApp, outboundTo, type SmsTestApp } from '../test/sms';
import { smsTexts } from '../sms/texts';
import { apiClient, bearer, buildUser, signIn, type TestUser } from '../test/factories';

describe('On This Day in the daily reminder', () => {
  let t: SmsTestApp;
  beforeAll(async () => {
    t = await buildSmsTestApp();
  });
  afterAll(() => t.close());

  /** A New York user created on the morning of `day`, with entries written for `earlier` days. */
  const writerOn = async (day: string, earlier: string[]): Promise<TestUser> => {
    t.clock.set(new Date(`${day}T14:00:00Z`));
    const user = await buildUser(t, { timezone: 'America/New_York' });
    for (const entryDate of earlier) {
      const res = await t.app.inject({ method: 'POST', url: '/api/entries', headers: bearer(await signIn(t, user)), payload: { content: `Secret thoughts of ${entryDate}`, entry_date: entryDate } });
      expect(res.statusCode, res.body).toBe(201);
    }
    return user;
  };
  const passAt = (instant: string) => {
    t.clock.set(new Date(instant));
    return runReminderPass(t.ctx, new Date(instant));
  };
  const reminderBodies = async (user: TestUser) =>
    (await outboundTo(t, user.phone)).filter((m) => m.kind === 'reminder' || m.kind === 'nudge').map((m) => t.ctx.cipher.decrypt(SYSTEM_SUBJECT.id, SYSTEM_SUBJECT.salt, m.body ?? ''));

  const LINE = /^(.*) You wrote on this day (.+) ago - read it: (http:\/\/jotline\.test\/auth\/callback\?token=\S+) Reply STOP to opt out\.$/;

  it('adds “You wrote on this day 1 year ago” with a sign-in link, never the entry’s text', async () => {
    const user = await writerOn('2026-05-09', ['2025-05-09']);
    await passAt('2026-05-10T00:00:00Z'); // 20:00 on 9 May in New York
    const [body] = await reminderBodies(user);
    const match = LINE.exec(body!);
    expect(match, body).not.toBeNull();
    expect(`${match![1]} Reply STOP to opt out.`).toBe(smsTexts.dailyPrompt(promptForDay('2026-05-09')));
    expect(match![2]).toBe('1 year');
    expect(body).not.toContain('Secret thoughts');
    // Plain ASCII, so it stays a GSM-7 text.
    expect(/^[\x20-\x7e]*$/.test(body!)).toBe(true);

    // The link signs the user in, once.
    const token = new URL(match![3]!).searchParams.get('token');
    const session = await apiClient(t).post('/api/auth/token', { grant_type: 'link', token });
    expect(session.status).toBe(200);
    expect(session.body.user.id).toBe(user.id);
    expect((await apiClient(t).post('/api/auth/token', { grant_type: 'link', token })).status).toBe(400);
  });

  it('counts the years to the most recent earlier year', async () => {
    const user = await writerOn('2026-06-02', ['2019-06-02', '2023-06-02', '2025-06-01']);
    await passAt('2026-06-03T00:00:00Z');
    const [body] = await reminderBodies(user);
    expect(LINE.exec(body!)?.[2]).toBe('3 years');
  });

  it('on 28 February of a common year, remembers 29 February', async () => {
    const user = await writerOn('2027-02-28', ['2024-02-29']);
    await passAt('2027-03-01T01:00:00Z'); // 20:00 EST on 28 February
    const [body] = await reminderBodies(user);
    expect(LINE.exec(body!)?.[2]).toBe('3 years');
  });

  it('sends the plain reminder when the switch is off, or when nothing was written on this day before', async () => {
    const off = await writerOn('2027-07-04', ['2026-07-04']);
    const profile = await apiClient(t).get('/api/profile', await signIn(t, off));
    expect(profile.body.on_this_day_enabled).toBe(true);
    const patched = await apiClient(t).patch('/api/profile', { on_this_day_enabled: false }, await signIn(t, off));
    expect(patched.status).toBe(200);
    expect(patched.body.on_this_day_enabled).toBe(false);
    const nothing = await writerOn('2027-07-04', ['2026-07-03']);
    await passAt('2027-07-05T00:00:00Z');
    const plain = smsTexts.dailyPrompt(promptForDay('2027-07-04'));
    expect(await reminderBodies(off)).toEqual([plain]);
    expect(await reminderBodies(nothing)).toEqual([plain]);
    expect(messages.onThisDay.reminderLine(2, 'L')).toBe('You wrote on this day 2 years ago - read it: L');
  });

  it('adds the line to the missed-day nudge too, since it is that day’s text', async () => {
    t.clock.set(new Date('2027-08-01T14:00:00Z'));
    const user = await writerOn('2027-08-01', ['2026-08-03']);
    await passAt('2027-08-04T00:00:00Z'); // 20:00 on 3 August; nothing written on the 2nd
    const [body] = await reminderBodies(user);
    expect(body!.startsWith('Jotline: We missed you yesterday.')).toBe(true);
    expect(LINE.exec(body!)?.[2]).toBe('1 year');
  });
});
