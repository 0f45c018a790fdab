import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { jobDefinitions } from '../jobs/definitions';
import { createEntry } from '../test/journal';
import { sendDueMessages } from '../sms/outbound';
import { type FakeTwilio, profileOf, type SmsTestApp, textJournal, withTwilioApp } from '../test/sms';
import { apiClient, buildUser, signIn, bearer, signUpBody, uniquePhone } from '../test/factories';
import { expirePendingSignUps } from './pending-sign-ups';

const NOW = new Date('2026-11-23T17:00:00.000Z');
const MINUTE = 60_000;

describe('pending sign-ups only claim a phone number', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));
  beforeEach(() => t.clock.set(NOW));

  const userIdOf = async (email: string) =>
    (await t.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst())?.id;

  /** Signs up through the API (each from an address of its own) and returns what the person holds. */
  async function signUp(overrides: Record<string, unknown> = {}) {
    const body = signUpBody(overrides);
    const res = await apiClient(t).post('/api/auth/signup', body);
    expect(res.status).toBe(200);
    return { body, token: res.body.verification_token as string, userId: (await userIdOf(body.email))! };
  }
  const checkVerification = (token: string) => apiClient(t).post('/api/auth/verify-phone', { verification_token: token });

  it('keeps every pending sign-up for a number: a newer one ends no older one', async () => {
    const phone = uniquePhone();
    const first = await signUp({ phoneNumber: phone.slice(2) });
    t.clock.advance(MINUTE);
    const second = await signUp({ phoneNumber: phone.slice(2) });
    expect(await userIdOf(first.body.email)).toBe(first.userId);
    expect(await userIdOf(second.body.email)).toBe(second.userId);
    expect((await checkVerification(first.token)).body).toEqual({ verified: false });
    expect((await checkVerification(second.token)).body).toEqual({ verified: false });
  });

  it('still refuses a number a verified account holds', async () => {
    const holder = await buildUser(t);
    const res = await apiClient(t).post('/api/auth/signup', signUpBody({ phoneNumber: holder.phone.slice(2) }));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(messages.signUp.phoneTaken);
    expect((await profileOf(t, holder.id)).phone_verified).toBe(1);
  });

  it('lets the person sign up again with the same e-mail address after a verification timeout, whatever the password', async () => {
    const first = await signUp();
    t.clock.advance(11 * MINUTE);
    const again = await signUp({ email: first.body.email, password: 'Another123' });
    expect(again.userId).not.toBe(first.userId);
    expect((await checkVerification(first.token)).status).toBe(400);
  });

  it('still refuses an e-mail address a verified account holds', async () => {
    const holder = await buildUser(t);
    const res = await apiClient(t).post('/api/auth/signup', signUpBody({ email: holder.email }));
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(messages.signUp.alreadyRegistered);
  });

  it('does not verify a sign-up whose 10-minute window has passed', async () => {
    const phone = uniquePhone();
    const late = await signUp({ phoneNumber: phone.slice(2) });
    t.clock.advance(10 * MINUTE + 1);
    await textJournal(t, phone, 'yes');
    await sendDueMessages(t.ctx);
    expect((await profileOf(t, late.userId))?.phone_verified ?? 0).toBe(0);
    const texts = twilio.sentTo(phone).map((m) => m.body);
    expect(texts.some((body) => /sign up/i.test(body) && body.includes('http://jotline.test'))).toBe(true);
    expect(texts.some((body) => body.includes('Your phone is verified'))).toBe(false);
  });

  it('expires unverified sign-ups after 10 minutes in a background job, keeping newer and verified accounts', async () => {
    const old = await signUp();
    t.clock.advance(5 * MINUTE);
    const recent = await signUp();
    const verified = await buildUser(t);
    t.clock.advance(5 * MINUTE + 1);

    const job = jobDefinitions.find((j) => j.name === 'pending-sign-ups');
    expect(job).toBeDefined();
    await job!.run(t.ctx);

    expect(await userIdOf(old.body.email)).toBeUndefined();
    expect(await userIdOf(recent.body.email)).toBe(recent.userId);
    expect(await userIdOf(verified.email)).toBe(verified.id);
    // The number is free again.
    await signUp({ phoneNumber: old.body.phoneNumber });
  });

  it('does not remove a sign-up in use: the lapse counts from the last time its signed-in owner was seen', async () => {
    const person = await signUp();
    const idle = await signUp();
    for (let minute = 0; minute < 25; minute += 5) {
      t.clock.advance(5 * MINUTE);
      const token = await signIn(t, { id: person.userId });
      const seen = await apiClient(t).get('/api/auth/user', token);
      expect(seen.body.phone_verified).toBe(false);
      expect(seen.body.sign_up_lapses_at).toBe(new Date(t.clock.now().getTime() + 10 * MINUTE).toISOString());
      await expirePendingSignUps(t.ctx);
    }
    expect(await userIdOf(person.body.email)).toBe(person.userId);
    expect(await userIdOf(idle.body.email)).toBeUndefined();
    // Once away longer than the window, it lapses as any other.
    t.clock.advance(10 * MINUTE + 1);
    await expirePendingSignUps(t.ctx);
    expect(await userIdOf(person.body.email)).toBeUndefined();
  });

  it('keeps an expired unverified account that already wrote in its journal (nothing is lost)', async () => {
    const person = await signUp();
    const token = await signIn(t, { id: person.userId });
    await createEntry(t, { id: person.userId, token, headers: bearer(token) }, { content: 'written before verifying' });
    t.clock.advance(11 * MINUTE);
    await expirePendingSignUps(t.ctx);
    expect(await userIdOf(person.body.email)).toBe(person.userId);
  });
});
