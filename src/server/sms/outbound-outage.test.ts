import { describe, expect, it } from 'vitest';
import { runReminderPass } from '../reminders/service';
import { bearer, buildUser, signIn, uniquePhone } from '../test/factories';
import { enqueueSms, sendDueMessages } from './outbound';
import { MAX_RETRY_MS } from './outbound-retry';
import { type FakeTwilio, outboundTo, profileOf, type SmsTestApp, textJournal, withTwilioApp } from '../test/sms';

const METRICS_TOKEN = 'metrics-token-for-outage-tests-0123';
const TWILIO_DOWN = { status: 500, code: 20500 };

/**
 * Runs the sender every `stepMs` of the test clock until `untilMs` have passed; answers the clock
 * time (ms) at which each text first reached Twilio, by recipient.
 */
async function runSender(t: SmsTestApp, twilio: FakeTwilio, untilMs: number, stepMs: number): Promise<Map<string, number>> {
  const firstSeen = new Map<string, number>();
  const end = t.clock.now().getTime() + untilMs;
  while (t.clock.now().getTime() <= end) {
    await sendDueMessages(t.ctx);
    for (const m of twilio.sent) if (!firstSeen.has(m.to)) firstSeen.set(m.to, t.clock.now().getTime());
    t.clock.advance(stepMs);
  }
  return firstSeen;
}

describe('the outbound sender through a Twilio outage', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app), { env: { METRICS_TOKEN } });

  it('sends every text queued during a 400-second outage, once each, within five minutes of Twilio coming back', async () => {
    t.clock.set(new Date('2026-05-04T18:00:00Z'));
    const kinds = ['reminder', 'weekly_recap', 'command_reply'];
    const phones = Array.from({ length: 24 }, () => uniquePhone());
    for (const [i, to] of phones.entries()) {
      await enqueueSms(t.ctx, { userId: null, to, body: `text ${i}`, kind: kinds[i % 3]!, dueAt: t.clock.now(), expiresAt: new Date(Date.parse('2026-05-04T20:00:00Z')) });
    }
    twilio.outage(TWILIO_DOWN);
    await runSender(t, twilio, 400_000, 5_000);
    expect(twilio.sent).toHaveLength(0);
    twilio.outage(null);
    const back = t.clock.now().getTime();
    const seen = await runSender(t, twilio, MAX_RETRY_MS + 10_000, 5_000);

    expect(twilio.sent.map((m) => m.to).sort()).toEqual([...phones].sort());
    for (const to of phones) expect(seen.get(to)! - back).toBeLessThanOrEqual(MAX_RETRY_MS);
    for (const to of phones) expect((await outboundTo(t, to))[0]).toMatchObject({ status: 'queued', error_message: null });
  });

  it('keeps trying through hours of outage at most five minutes apart; a reminder by then hours late is dropped, a reply still goes', async () => {
    t.clock.set(new Date('2026-05-05T23:30:00Z'));
    const user = await buildUser(t);
    // The reminder pass finds the reminder due and queues it as the outage begins.
    await runReminderPass(t.ctx, t.clock.now());
    const due = (await profileOf(t, user.id)).next_reminder_at!;
    t.clock.set(new Date(due));
    twilio.outage(TWILIO_DOWN);
    expect((await runReminderPass(t.ctx, t.clock.now())).reminders).toBe(1);
    const replyTo = uniquePhone();
    await enqueueSms(t.ctx, { userId: null, to: replyTo, body: 'Your entry was added.', kind: 'command_reply' });

    await runSender(t, twilio, 6 * 3_600_000, 60_000);
    const [reply] = await outboundTo(t, replyTo);
    // Six hours of tries no more than five minutes apart.
    expect(reply!.attempts).toBeGreaterThanOrEqual((6 * 3_600_000) / MAX_RETRY_MS);
    expect(reply!.status).toBe('pending');

    twilio.outage(null);
    await runSender(t, twilio, MAX_RETRY_MS + 60_000, 60_000);
    expect(twilio.sentTo(replyTo)).toHaveLength(1);
    expect(twilio.sentTo(user.phone)).toHaveLength(0);
    const [reminder] = await outboundTo(t, user.phone);
    expect(reminder).toMatchObject({ kind: 'reminder', status: 'skipped', error_message: 'Dropped: more than 2 hours past its time' });
  });

  it('waits out a 429 for as long as its Retry-After says', async () => {
    t.clock.set(new Date('2026-05-07T12:00:00Z'));
    const to = uniquePhone();
    await enqueueSms(t.ctx, { userId: null, to, body: 'Paused until Friday.', kind: 'command_reply' });
    twilio.failNext({ status: 429, code: 20429, retryAfter: '120' });
    expect(await sendDueMessages(t.ctx)).toMatchObject({ retrying: 1 });
    t.clock.advance(119_000);
    await sendDueMessages(t.ctx);
    expect(twilio.sentTo(to)).toHaveLength(0);
    t.clock.advance(1_000);
    await sendDueMessages(t.ctx);
    expect(twilio.sentTo(to)).toHaveLength(1);
  });

  it('marks a text failed after 24 hours of tries, in the SMS health and in /metrics', async () => {
    t.clock.set(new Date('2026-05-10T09:00:00Z'));
    const to = uniquePhone();
    await enqueueSms(t.ctx, { userId: null, to, body: 'Nothing to undo.', kind: 'command_reply' });
    twilio.outage(TWILIO_DOWN);
    await runSender(t, twilio, 23 * 3_600_000, 5 * 60_000);
    expect((await outboundTo(t, to))[0]!.status).toBe('pending');
    await runSender(t, twilio, 2 * 3_600_000, 5 * 60_000);
    twilio.outage(null);
    const [row] = await outboundTo(t, to);
    expect(row).toMatchObject({ status: 'failed', error_code: 'gave_up' });
    expect(row!.error_message).toMatch(/^Gave up after 24 hours of tries: Twilio refused the request \(500, code 20500\)/);
    // Failed for good: Twilio's return changes nothing.
    await runSender(t, twilio, 10 * 60_000, 60_000);
    expect(twilio.sentTo(to)).toHaveLength(0);

    const admin = await buildUser(t, { isAdmin: true });
    const health = await t.app.inject({ method: 'GET', url: '/api/admin/sms-health', headers: bearer(await signIn(t, admin)) });
    expect(health.statusCode).toBe(200);
    const outbound = health.json().checks.find((c: { name: string }) => c.name === 'outbound_sender');
    expect(outbound).toEqual({ name: 'outbound_sender', passed: false, message: '1 outbound text(s) failed after 24 hours of tries' });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.body).toContain('jotline_outbound_texts_total{status="gave_up"} 1');
  });
});

describe('texts that have become pointless', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));

  it('drops a texted sign-in link once the link has expired, and sends one still good', async () => {
    t.clock.set(new Date('2026-06-01T15:00:00Z'));
    const late = await buildUser(t);
    const soon = await buildUser(t);
    twilio.outage(TWILIO_DOWN);
    const ask = (phoneNumber: string) => t.app.inject({ method: 'POST', url: '/api/auth/link', payload: { phoneNumber } });
    expect((await ask(late.phone)).statusCode).toBe(200);
    await runSender(t, twilio, 12 * 60_000, 30_000);
    expect((await ask(soon.phone)).statusCode).toBe(200);
    await runSender(t, twilio, 4 * 60_000, 30_000);
    twilio.outage(null);
    await runSender(t, twilio, MAX_RETRY_MS + 30_000, 30_000);

    expect(twilio.sentTo(late.phone)).toHaveLength(0);
    expect((await outboundTo(t, late.phone))[0]).toMatchObject({ kind: 'sign_in_link', status: 'skipped', error_message: 'Dropped: its sign-in link had expired' });
    expect(twilio.sentTo(soon.phone)).toHaveLength(1);
  });

  it('drops the reply to LINK once the link it carries has expired', async () => {
    t.clock.set(new Date('2026-06-01T18:00:00Z'));
    const user = await buildUser(t);
    twilio.outage(TWILIO_DOWN);
    await textJournal(t, user.phone, 'LINK');
    await runSender(t, twilio, 16 * 60_000, 30_000);
    twilio.outage(null);
    await runSender(t, twilio, MAX_RETRY_MS, 30_000);
    expect(twilio.sentTo(user.phone)).toHaveLength(0);
    expect((await outboundTo(t, user.phone))[0]).toMatchObject({ kind: 'command_reply', status: 'skipped', error_message: 'Dropped: its sign-in link had expired' });
  });

  it('drops a verification text once the sign-up it confirms has lapsed', async () => {
    t.clock.set(new Date('2026-06-02T15:00:00Z'));
    const to = uniquePhone();
    await enqueueSms(t.ctx, { userId: null, to, body: 'Reply YES to confirm.', kind: 'verification' });
    twilio.outage(TWILIO_DOWN);
    await runSender(t, twilio, 11 * 60_000, 30_000);
    twilio.outage(null);
    await runSender(t, twilio, MAX_RETRY_MS, 30_000);
    expect(twilio.sentTo(to)).toHaveLength(0);
    expect((await outboundTo(t, to))[0]).toMatchObject({ status: 'skipped', error_message: 'Dropped: the sign-up it asks to confirm had lapsed' });
  });
});
