import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { apiClient, buildUser, signIn, signUpBody, uniqueEmail } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';

describe('e-mail verification', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const mailTo = (email: string) => t.app.ctx.simulators.mail!.outbox.filter((m) => m.to === email);
  const tokenIn = (text: string) => {
    const url = new URL(/(http\S+auth\/callback\S+)/.exec(text)![1]!);
    expect(url.origin + url.pathname).toBe('http://jotline.test/auth/callback');
    expect(url.searchParams.get('type')).toBe('email');
    return url.searchParams.get('token_hash')!;
  };
  const user = async (token: string) => (await apiClient(t).get('/api/auth/user', token)).body;
  const signedUp = async () => {
    const email = uniqueEmail('confirm');
    const res = await apiClient(t).post('/api/auth/signup', signUpBody({ email }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await t.app.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    return { email, token: await signIn(t, row) };
  };

  it('mails a link at sign-up; POST /api/auth/verify {token_hash, type: "email"} confirms the address once', async () => {
    const { email, token } = await signedUp();
    expect((await user(token)).email_verified).toBe(false);
    const [mail] = mailTo(email);
    expect(mail!.subject).toBe('Confirm your Jotline e-mail address');
    const hash = tokenIn(mail!.text);

    const verified = await apiClient(t).post('/api/auth/verify', { token_hash: hash, type: 'email' });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ email_verified: true });
    expect((await user(token)).email_verified).toBe(true);

    const again = await apiClient(t).post('/api/auth/verify', { token_hash: hash, type: 'email' });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(messages.emailVerification.invalidLink);
    // An e-mail link is not a recovery link: it signs no one in.
    expect((await apiClient(t).post('/api/auth/verify', { token_hash: hash, type: 'recovery' })).status).toBe(400);
  });

  it('sends no reset mail to an address nobody confirmed, and does once it is', async () => {
    const { email } = await signedUp();
    const hash = tokenIn(mailTo(email)[0]!.text);
    const asked = await apiClient(t).post('/api/auth/recover', { email });
    expect(asked.status).toBe(200);
    expect(mailTo(email).filter((m) => m.subject.startsWith('Reset'))).toHaveLength(0);

    await apiClient(t).post('/api/auth/verify', { token_hash: hash, type: 'email' });
    await apiClient(t).post('/api/auth/recover', { email });
    expect(mailTo(email).filter((m) => m.subject.startsWith('Reset'))).toHaveLength(1);
  });

  it('sends the link again when the signed-in owner asks, and nothing to a confirmed address', async () => {
    const { email, token } = await signedUp();
    expect((await apiClient(t).post('/api/auth/verify/resend', {}, token)).status).toBe(200);
    expect(mailTo(email)).toHaveLength(2);
    expect((await apiClient(t).post('/api/auth/verify/resend', {})).status).toBe(401);

    const confirmed = await buildUser(t);
    await apiClient(t).post('/api/auth/verify/resend', {}, await signIn(t, confirmed));
    expect(mailTo(confirmed.email)).toHaveLength(0);
  });

  it('answers a missing or unknown token with 400 and a clear message, never 500', async () => {
    for (const body of [{ type: 'email' }, { type: 'email', token_hash: 'nope' }]) {
      const res = await apiClient(t).post('/api/auth/verify', body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(messages.emailVerification.invalidLink);
    }
  });
});
