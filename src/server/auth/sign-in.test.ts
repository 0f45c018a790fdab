import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { rateLimitKey } from '../rate-limit';
import { apiClient, buildUser, uniqueEmail } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';

describe('POST /api/auth/token with the password grant', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const events = (identifier: string) =>
    t.app.ctx.db.selectFrom('security_events').selectAll().where('identifier', '=', identifier).orderBy('created_at').execute();

  it('returns a full session for the right e-mail and password', async () => {
    const user = await buildUser(t);
    const res = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password });
    expect(res.status).toBe(200);
    const nowSeconds = Math.floor(t.clock.now().getTime() / 1000);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 3600,
      expires_at: nowSeconds + 3600,
      refresh_token: expect.any(String),
      user: { id: user.id, email: user.email, email_verified: true, phone: user.phone, phone_verified: true, sign_up_lapses_at: null, is_admin: false, created_at: expect.any(String) },
    });
  });

  it('gives an access token that reaches the signed-in API', async () => {
    const user = await buildUser(t);
    const session = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password });
    const me = await apiClient(t).get('/api/auth/user', session.body.access_token);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(user.email);
  });

  it('matches the e-mail address whatever its case and surrounding spaces', async () => {
    const user = await buildUser(t);
    const res = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: `  ${user.email.toUpperCase()} `, password: user.password });
    expect(res.status).toBe(200);
  });

  it('signs in a person whose phone is not verified yet', async () => {
    const user = await buildUser(t, { verified: false });
    const res = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password });
    expect(res.status).toBe(200);
    expect(res.body.user.phone_verified).toBe(false);
  });

  it('refuses a wrong password and records a medium-severity login failure without the password', async () => {
    const user = await buildUser(t);
    const res = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: user.email, password: 'Wrong-Secret-1' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'INVALID_CREDENTIALS', message: 'Invalid login credentials' } });
    const [event] = await events(user.email);
    expect(event).toMatchObject({ event_type: 'login_failure', severity: 'medium', user_id: user.id });
    expect(JSON.stringify(event)).not.toContain('Wrong-Secret-1');
  });

  it('answers an unknown e-mail address exactly as a wrong password', async () => {
    const email = uniqueEmail('nobody');
    const res = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email, password: 'Journal123' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'INVALID_CREDENTIALS', message: 'Invalid login credentials' } });
    expect(await events(email)).toMatchObject([{ event_type: 'login_failure', severity: 'medium', user_id: null }]);
  });

  it('refuses the 6th attempt from one address after 5 failures in 15 minutes, even with the right password', async () => {
    const user = await buildUser(t);
    const api = apiClient(t);
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await api.post('/api/auth/token', { grant_type: 'password', email: user.email, password: `Wrong123${i}` })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    const sixth = await api.post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: { code: 'RATE_LIMITED', message: messages.signIn.rateLimited } });

    t.clock.advance(15 * 60_000 + 1);
    const later = await api.post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password });
    expect(later.status).toBe(200);
  });

  it('does not count successful sign-ins towards the limit', async () => {
    const user = await buildUser(t);
    for (let i = 0; i < 7; i++) {
      const res = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password });
      expect(res.status).toBe(200);
    }
  });

  it('caps failed sign-ins from one client address across e-mail addresses', async () => {
    const api = apiClient(t);
    const key = rateLimitKey('signin-fail-ip', api.ip);
    const at = t.clock.now().toISOString();
    await t.app.ctx.db
      .insertInto('rate_limit_hits')
      .values(Array.from({ length: 50 }, (_, i) => ({ id: `${key}-${i}`, key, created_at: at })))
      .execute();
    const user = await buildUser(t);
    const res = await api.post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password });
    expect(res.status).toBe(429);
    expect((await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password })).status).toBe(200);
  });

  it('refuses an e-mail carrying script fragments and records a high-severity event', async () => {
    const api = apiClient(t);
    const res = await api.post('/api/auth/token', { grant_type: 'password', email: 'a<script>@example.com', password: 'Journal123' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(messages.signIn.suspiciousInput);
    const event = await t.app.ctx.db.selectFrom('security_events').selectAll().where('ip', '=', api.ip).executeTakeFirstOrThrow();
    expect(event).toMatchObject({ event_type: 'suspicious_input', severity: 'high' });
    expect(event.details).not.toContain('Journal123');
  });

  it('asks for the e-mail address and the password', async () => {
    const noEmail = await apiClient(t).post('/api/auth/token', { grant_type: 'password', password: 'Journal123' });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error.message).toBe(messages.signIn.emailRequired);
    const noPassword = await apiClient(t).post('/api/auth/token', { grant_type: 'password', email: uniqueEmail() });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.error.message).toBe(messages.signIn.passwordRequired);
  });

  it('refuses a grant type it does not know', async () => {
    for (const body of [{ grant_type: 'magic' }, {}]) {
      const res = await apiClient(t).post('/api/auth/token', body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(messages.auth.unsupportedGrant);
    }
  });
});
