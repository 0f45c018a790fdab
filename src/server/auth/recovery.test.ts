import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { apiClient, buildUser, uniqueEmail } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';

describe('password recovery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const outbox = () => t.app.ctx.simulators.mail!.outbox;
  const mailTo = (email: string) => outbox().filter((m) => m.to === email);
  const tokenIn = (text: string) => {
    const link = /(http\S+reset-password\S+)/.exec(text)![1]!;
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe('http://jotline.test/reset-password');
    expect(url.searchParams.get('type')).toBe('recovery');
    return url.searchParams.get('token_hash')!;
  };
  const verify = (token_hash: string, type = 'recovery') => apiClient(t).post('/api/auth/verify', { token_hash, type });

  it('asks for the e-mail address', async () => {
    for (const body of [{}, { email: '   ' }]) {
      const res = await apiClient(t).post('/api/auth/recover', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: { code: 'INVALID_INPUT', message: 'Email is required' } });
    }
  });

  it('answers the same for known and unknown addresses, and mails only the known one', async () => {
    const user = await buildUser(t);
    const stranger = uniqueEmail('stranger');
    const known = await apiClient(t).post('/api/auth/recover', { email: user.email });
    const unknown = await apiClient(t).post('/api/auth/recover', { email: stranger });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({});
    expect(unknown.body).toEqual(known.body);
    expect(mailTo(user.email)).toHaveLength(1);
    expect(mailTo(stranger)).toHaveLength(0);
  });

  it('mails a link that signs the person in to set a new password', async () => {
    const user = await buildUser(t);
    await apiClient(t).post('/api/auth/recover', { email: ` ${user.email.toUpperCase()}` });
    const [mail] = mailTo(user.email);
    expect(mail!.subject).toBe('Reset your Jotline password');
    const token = tokenIn(mail!.text);
    expect(mail!.html).toContain(`token_hash=${token}&amp;type=recovery`);

    const session = await verify(token);
    expect(session.status).toBe(200);
    expect(session.body.user.id).toBe(user.id);

    const changed = await apiClient(t).put('/api/auth/user', { password: 'Fresh-pass1' }, session.body.access_token);
    expect(changed.status).toBe(200);
    const signIn = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: user.email, password: 'Fresh-pass1' });
    expect(signIn.status).toBe(200);
  });

  it('lets a recovery link work once', async () => {
    const user = await buildUser(t);
    await apiClient(t).post('/api/auth/recover', { email: user.email });
    const token = tokenIn(mailTo(user.email)[0]!.text);
    expect((await verify(token)).status).toBe(200);
    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: { code: 'INVALID_TOKEN', message: 'This password reset link has expired or is invalid.' } });
  });

  it('refuses a recovery link after 60 minutes', async () => {
    const user = await buildUser(t);
    await apiClient(t).post('/api/auth/recover', { email: user.email });
    const token = tokenIn(mailTo(user.email)[0]!.text);
    t.clock.advance(60 * 60_000 + 1);
    expect((await verify(token)).status).toBe(400);
  });

  it('refuses an unknown token, a missing one and any type but recovery', async () => {
    const user = await buildUser(t);
    await apiClient(t).post('/api/auth/recover', { email: user.email });
    const token = tokenIn(mailTo(user.email)[0]!.text);
    for (const answer of [await verify('nope'), await apiClient(t).post('/api/auth/verify', { type: 'recovery' }), await verify(token, 'signup')]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: { code: 'INVALID_TOKEN', message: messages.reset.invalidText } });
    }
    expect((await verify(token)).status).toBe(200);
  });

  it('stops older links working once the password has changed', async () => {
    const user = await buildUser(t);
    await apiClient(t).post('/api/auth/recover', { email: user.email });
    await apiClient(t).post('/api/auth/recover', { email: user.email });
    const [first, second] = mailTo(user.email).map((m) => tokenIn(m.text));
    const session = await verify(first!);
    await apiClient(t).put('/api/auth/user', { password: 'Another-one1' }, session.body.access_token);
    expect((await verify(second!)).status).toBe(400);
  });

  it('quietly stops mailing an address asked about more than 3 times in 15 minutes', async () => {
    const user = await buildUser(t);
    for (let i = 0; i < 5; i++) {
      const res = await apiClient(t).post('/api/auth/recover', { email: user.email });
      expect(res.status).toBe(200);
    }
    expect(mailTo(user.email)).toHaveLength(3);
  });

  it('caps recovery requests from one client address', async () => {
    const api = apiClient(t);
    const statuses = [];
    for (let i = 0; i < 21; i++) statuses.push((await api.post('/api/auth/recover', { email: uniqueEmail() })).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});
