import { describe, expect, it } from 'vitest';
import { sendDueMessages } from '../sms/outbound';
import { accountLabel, smsTexts } from '../sms/texts';
import { type FakeTwilio, type SmsTestApp, textJournal, withTwilioApp } from '../test/sms';
import { apiClient, signUpBody } from '../test/factories';

// The whole way in, as the acceptance checks walk it: sign up, get the text, reply YES, follow the link.
// On a database of its own, so no other test's sender claims the verification text.
describe('signing up by phone', () => {
  let twilio: FakeTwilio;
  let t: SmsTestApp;
  withTwilioApp((app) => ({ twilio, t } = app));

  it('signs the person in once they reply YES to the verification text', async () => {
    const api = apiClient(t);
    const body = signUpBody();
    const phone = `+1${body.phoneNumber}`;
    const signUp = await api.post('/api/auth/signup', body);
    expect(signUp.status).toBe(200);
    const verification_token = signUp.body.verification_token;

    await sendDueMessages(t.ctx);
    const [text] = twilio.sentTo(phone);
    expect(text!.body).toBe(smsTexts.verification(accountLabel(body.email)));
    expect(text!.body).toContain(`for the Jotline account ${body.email[0]}***`);
    expect(text!.body).toMatch(/YES/);
    expect(text!.body).toMatch(/STOP/);
    expect((await api.post('/api/auth/verify-phone', { verification_token })).body).toEqual({ verified: false });

    await textJournal(t, phone, 'YES');
    const verified = await api.post('/api/auth/verify-phone', { verification_token });
    expect(verified.body.verified).toBe(true);

    const token = new URL(verified.body.auth_link).searchParams.get('token');
    const session = await api.post('/api/auth/token', { grant_type: 'link', token });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email: body.email, phone, phone_verified: true });
    const me = await api.get('/api/auth/user', session.body.access_token);
    expect(me.body.email).toBe(body.email);
  });
});
