import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { formatUsPhone } from '../../shared/site';
import { sendDueMessages } from '../sms/outbound';
import { type FakeTwilio, JOURNAL_NUMBER, outboundTo, profileOf, type SmsTestApp, textJournal, withTwilioApp } from '../test/sms';
import { smsTexts, accountLabel } from '../sms/texts';
import { apiClient, buildUser, signIn, signUpBody, uniqueIp } from '../test/factories';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

// "Verify your phone" in the journal offers to send the verification text again (issue 35).
describe('POST /api/auth/verify/resend {type: "sms"}', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));
  beforeEach(() => t.clock.set(new Date('2026-11-25T18:00:00.000Z')));

  /** A sign-up through the API, signed in as its owner would be. */
  async function signedInSignUp() {
    const body = signUpBody();
    expect((await apiClient(t).post('/api/auth/signup', body)).status).toBe(200);
    const { id } = await t.ctx.db.selectFrom('users').select('id').where('email', '=', body.email).executeTakeFirstOrThrow();
    return { id, email: body.email, phone: `+1${body.phoneNumber}`, token: await signIn(t, { id }) };
  }
  const resend = (token?: string, ip = uniqueIp()) => apiClient(t, ip).post('/api/auth/verify/resend', { type: 'sms' }, token);
  const textsTo = async (phone: string) => {
    await sendDueMessages(t.ctx);
    return twilio.sentTo(phone);
  };

  it('texts the sign-up its verification text again, and a YES to it verifies the phone', async () => {
    const account = await signedInSignUp();
    expect(await textsTo(account.phone)).toHaveLength(1);
    t.clock.advance(5 * MINUTE);
    const res = await resend(account.token);
    expect(res.status).toBe(204);
    const texts = await textsTo(account.phone);
    expect(texts).toHaveLength(2);
    expect(texts[1]!.body).toBe(smsTexts.verification(accountLabel(account.email)));
    // The sign-up waits for the new text: ten minutes from now, not from the first one.
    expect(Date.parse((await profileOf(t, account.id)).verification_expires_at!)).toBe(t.clock.now().getTime() + 10 * MINUTE);
    await textJournal(t, account.phone, 'YES');
    expect((await profileOf(t, account.id)).phone_verified).toBe(1);
  });

  it('counts against the number\'s 3 texts a day, with the sign-up\'s own: a fourth is refused, clearly, and goes the next day', async () => {
    const account = await signedInSignUp();
    expect((await resend(account.token)).status).toBe(204);
    expect((await resend(account.token)).status).toBe(204);
    const refused = await resend(account.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: 'RATE_LIMITED', message: messages.accountState.resendLimited } });
    expect(await textsTo(account.phone)).toHaveLength(3);
    t.clock.advance(DAY);
    expect((await resend(await signIn(t, account))).status).toBe(204);
    expect(await textsTo(account.phone)).toHaveLength(4);
  });

  it('counts against the client address\'s 10 verification texts a day, sign-ups included', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await apiClient(t, ip).post('/api/auth/signup', signUpBody())).status).toBe(200);
    const account = await signedInSignUp();
    const refused = await resend(account.token, ip);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(messages.accountState.resendLimited);
    expect((await resend(account.token)).status).toBe(204);
  });

  it('refuses a number that texted STOP, saying texts are off and how to turn them on; after START it sends', async () => {
    const account = await signedInSignUp();
    await textJournal(t, account.phone, 'STOP');
    const before = (await outboundTo(t, account.phone)).length;
    const refused = await resend(account.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(messages.accountState.textsOff(formatUsPhone(JOURNAL_NUMBER)));
    expect(refused.body.error.message).toContain('Text START to');
    expect(await outboundTo(t, account.phone)).toHaveLength(before);
    // START answers with the verification question itself; the button sends it once more.
    await textJournal(t, account.phone, 'START');
    expect((await profileOf(t, account.id)).is_opted_out).toBe(0);
    expect((await resend(account.token)).status).toBe(204);
    expect((await outboundTo(t, account.phone)).filter((m) => m.kind === 'verification')).toHaveLength(2);
  });

  it('refuses a verified phone, and a number another account verified first, without a text', async () => {
    const verified = await buildUser(t);
    const refused = await resend(await signIn(t, verified));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(messages.accountState.alreadyVerified);

    const account = await signedInSignUp();
    const other = await signedInSignUp();
    // Someone else's sign-up on the same number was confirmed by the number's owner.
    await t.ctx.db.updateTable('profiles').set({ phone_number: account.phone, phone_verified: 1 }).where('id', '=', other.id).execute();
    const taken = await resend(account.token);
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe(messages.accountState.verifiedElsewhere);
    expect((await outboundTo(t, account.phone)).filter((m) => m.kind === 'verification')).toHaveLength(1);
  });

  it('needs a session, and still sends the e-mail link when no type is given', async () => {
    expect((await resend()).status).toBe(401);
    const account = await signedInSignUp();
    expect((await apiClient(t).post('/api/auth/verify/resend', {}, account.token)).status).toBe(200);
    expect((await apiClient(t).post('/api/auth/verify/resend', { type: 'fax' }, account.token)).status).toBe(400);
    expect((await outboundTo(t, account.phone)).filter((m) => m.kind === 'verification')).toHaveLength(1);
  });
});
