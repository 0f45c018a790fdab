import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages, titled } from '../../shared/messages';
import { jobDefinitions } from '../jobs/definitions';
import { sendDueMessages } from '../sms/outbound';
import { type FakeTwilio, profileOf, type SmsTestApp, textJournal, withTwilioApp } from '../test/sms';
import { buildTestApp, type TestApp } from '../test/app';
import { apiClient, signUpBody, uniqueIp, uniquePhone } from '../test/factories';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

// Toll fraud (issue 24): any client could make the service text any number as often as it liked.
describe('verification texts we pay for', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));
  beforeEach(() => t.clock.set(new Date('2026-11-25T18:00:00.000Z')));

  const signUp = (overrides: Record<string, unknown> = {}, ip = uniqueIp()) => apiClient(t, ip).post('/api/auth/signup', signUpBody(overrides));
  const textsTo = async (phone: string) => {
    await sendDueMessages(t.ctx);
    return twilio.sentTo(phone);
  };

  it('texts a number at most 3 times a day; a fourth sign-up still succeeds, without a text', async () => {
    const phone = uniquePhone();
    const texted = [];
    for (let i = 0; i < 4; i++) {
      // Past the 3-in-15-minutes sign-up limit each time.
      t.clock.advance(16 * MINUTE);
      expect((await signUp({ phoneNumber: phone.slice(2) })).status).toBe(200);
      texted.push((await textsTo(phone)).length);
    }
    expect(texted).toEqual([1, 2, 3, 3]);
    // The owner can still answer an earlier text: it confirms the newest sign-up, the one still waiting.
    await textJournal(t, phone, 'YES');
    const newest = await t.ctx.db.selectFrom('profiles').select('id').where('phone_number', '=', phone).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect((await profileOf(t, newest.id)).phone_verified).toBe(1);
  });

  it('texts a number again the next day', async () => {
    const phone = uniquePhone();
    for (let i = 0; i < 3; i++) {
      t.clock.advance(16 * MINUTE);
      await signUp({ phoneNumber: phone.slice(2) });
      await sendDueMessages(t.ctx);
    }
    t.clock.advance(DAY);
    expect((await signUp({ phoneNumber: phone.slice(2) })).status).toBe(200);
    expect(await textsTo(phone)).toHaveLength(4);
  });

  it('refuses sign-ups from a client address that had 10 verification texts today', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await signUp({}, ip)).status).toBe(200);
    const refused = await signUp({}, ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(titled(messages.signUp.tooManyAttemptsTitle, messages.signUp.tooManyAttempts));
    expect((await signUp()).status).toBe(200);
    t.clock.advance(DAY);
    expect((await signUp({}, ip)).status).toBe(200);
  });
});

describe('verification texts on the simulator (development)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('cost nothing, so the daily allowances of a number and a client address do not apply', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 12; i++) expect((await apiClient(t, ip).post('/api/auth/signup', signUpBody())).status).toBe(200);
  });
});

describe('the hourly ceiling on verification texts (SMS_VERIFICATION_HOURLY_MAX)', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app), { env: { SMS_VERIFICATION_HOURLY_MAX: '2', METRICS_TOKEN } });

  const waitingGauge = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    return Number(/^jotline_verification_texts_waiting (\d+)$/m.exec(res.body)?.[1]);
  };

  it('lets sign-ups past it succeed, holds their texts to the next hour, and keeps them pending until then', async () => {
    t.clock.set(new Date('2031-07-14T18:55:00.000Z'));
    const phones = [uniquePhone(), uniquePhone(), uniquePhone()];
    for (const phone of phones) expect((await apiClient(t).post('/api/auth/signup', signUpBody({ phoneNumber: phone.slice(2) }))).status).toBe(200);
    await sendDueMessages(t.ctx);
    expect(phones.map((p) => twilio.sentTo(p).length)).toEqual([1, 1, 0]);
    expect(await waitingGauge()).toBe(1);

    // 19:00: the next hour's first text goes.
    t.clock.set(new Date('2031-07-14T19:00:00.000Z'));
    await sendDueMessages(t.ctx);
    expect(twilio.sentTo(phones[2]!)).toHaveLength(1);
    expect(await waitingGauge()).toBe(0);

    // 19:08, 13 minutes after the sign-up but 8 after its text: still pending, and YES verifies it.
    t.clock.set(new Date('2031-07-14T19:08:00.000Z'));
    await jobDefinitions.find((j) => j.name === 'pending-sign-ups')!.run(t.ctx);
    await textJournal(t, phones[2]!, 'YES');
    const profile = await t.ctx.db.selectFrom('profiles').select('id').where('phone_number', '=', phones[2]!).executeTakeFirstOrThrow();
    expect((await profileOf(t, profile.id)).phone_verified).toBe(1);
  });
});
