import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { hashToken } from '../crypto/tokens';
import { REFRESH_REUSE_INTERVAL_MS } from './sessions';
import { apiClient, buildUser, signInSession, type TestUser } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';

describe('sessions: refresh-token rotation and sign-out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  // The browser's device cookie, as its sign-in set it (device-cookies.ts): sent with every refresh.
  let deviceCookie = '';
  const refresh = async (refreshToken: string, cookie: string | null = deviceCookie) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/token', headers: cookie ? { cookie } : {}, payload: { grant_type: 'refresh_token', refresh_token: refreshToken } });
    return { status: res.statusCode, body: res.json() };
  };
  const signInWithPassword = async (user: TestUser) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { grant_type: 'password', email: user.email, password: user.password } });
    deviceCookie = String(res.headers['set-cookie']).split(';')[0]!;
    return res.json();
  };

  it('trades a refresh token for a new session with a new refresh token', async () => {
    const user = await buildUser(t);
    const first = await signInWithPassword(user);
    t.clock.advance(60_000);
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect(second.body.user.id).toBe(user.id);
    expect(second.body.expires_at).toBe(first.expires_at + 60);

    const old = await t.app.ctx.db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', hashToken(first.refresh_token)).executeTakeFirstOrThrow();
    expect(old.rotated_at).not.toBeNull();
    expect((await apiClient(t).get('/api/auth/user', second.body.access_token)).status).toBe(200);
  });

  it('stores refresh tokens hashed', async () => {
    const user = await buildUser(t);
    const session = await signInWithPassword(user);
    const raw = await t.app.ctx.db.selectFrom('refresh_tokens').select('id').where('token_hash', '=', session.refresh_token).executeTakeFirst();
    expect(raw).toBeUndefined();
  });

  it('revokes the whole family when a rotated refresh token is presented again', async () => {
    const user = await buildUser(t);
    const first = await signInWithPassword(user);
    const second = (await refresh(first.refresh_token)).body;
    t.clock.advance(REFRESH_REUSE_INTERVAL_MS);

    const reuse = await refresh(first.refresh_token);
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual({ error: { code: 'UNAUTHORIZED', message: messages.auth.invalidRefreshToken } });

    expect((await refresh(second.refresh_token)).status).toBe(401);
    expect((await apiClient(t).get('/api/auth/user', second.access_token)).status).toBe(401);
    const events = await t.app.ctx.db.selectFrom('security_events').selectAll().where('user_id', '=', user.id).where('event_type', '!=', 'sign_in').execute();
    expect(events).toMatchObject([{ event_type: 'refresh_token_reuse', severity: 'high' }]);
  });

  it('leaves the person’s other sessions alone when one family is revoked', async () => {
    const user = await buildUser(t);
    const phone = await signInWithPassword(user);
    const laptop = await signInWithPassword(user);
    await refresh(phone.refresh_token);
    t.clock.advance(REFRESH_REUSE_INTERVAL_MS);
    expect((await refresh(phone.refresh_token)).status).toBe(401);
    expect((await refresh(laptop.refresh_token)).status).toBe(200);
  });

  it('answers two tabs refreshing the same token at once with the same new refresh token, many times over', async () => {
    const user = await buildUser(t);
    let session = await signInWithPassword(user);
    for (let pair = 0; pair < 50; pair++) {
      const answers = await Promise.all([refresh(session.refresh_token), refresh(session.refresh_token)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers[1]!.body.refresh_token).toBe(answers[0]!.body.refresh_token);
      for (const answer of answers) expect((await apiClient(t).get('/api/auth/user', answer.body.access_token)).status).toBe(200);
      session = answers[0]!.body;
      t.clock.advance(60_000);
    }
    // Signing in is in the security log; no refresh was taken for a reuse.
    const events = await t.app.ctx.db.selectFrom('security_events').select('event_type').where('user_id', '=', user.id).execute();
    expect(events.map((e) => e.event_type)).not.toContain('refresh_token_reuse');
    expect(events.map((e) => e.event_type)).toEqual(['sign_in']);
  });

  it('refuses the token presented again from anywhere but the browser that holds it, at once, and ends the session', async () => {
    const user = await buildUser(t);
    const first = await signInWithPassword(user);
    const second = (await refresh(first.refresh_token)).body;
    const replayed = await refresh(first.refresh_token, null); // a stolen copy, no device cookie
    expect(replayed.status).toBe(401);
    expect((await refresh(second.refresh_token)).status).toBe(401);
  });

  it('answers a tab that refreshes late, within the reuse interval, with the same pair; after it, as reuse', async () => {
    const user = await buildUser(t);
    const first = await signInWithPassword(user);
    const second = (await refresh(first.refresh_token)).body;
    t.clock.advance(REFRESH_REUSE_INTERVAL_MS - 1000);
    const late = await refresh(first.refresh_token);
    expect(late.status).toBe(200);
    expect(late.body.refresh_token).toBe(second.refresh_token);
    // The pair goes on working: the next refresh trades it as usual.
    t.clock.advance(1000);
    const third = await refresh(second.refresh_token);
    expect(third.status).toBe(200);
    expect(third.body.refresh_token).not.toBe(second.refresh_token);

    t.clock.advance(REFRESH_REUSE_INTERVAL_MS);
    expect((await refresh(second.refresh_token)).status).toBe(401);
    expect((await refresh(third.body.refresh_token)).status).toBe(401);
  });

  it('does not bring a signed-out session back within the reuse interval', async () => {
    const user = await buildUser(t);
    const first = await signInWithPassword(user);
    const second = (await refresh(first.refresh_token)).body;
    expect((await apiClient(t).post('/api/auth/logout', { scope: 'local' }, second.access_token)).status).toBe(204);
    expect((await refresh(first.refresh_token)).status).toBe(401);
  });

  it('refuses an unknown or expired refresh token', async () => {
    expect((await refresh('made-up')).status).toBe(401);
    const user = await buildUser(t);
    const session = await signInWithPassword(user);
    t.clock.advance(30 * 86_400_000 + 1);
    expect((await refresh(session.refresh_token)).status).toBe(401);
  });

  it('refuses an access token once it has expired', async () => {
    const user = await buildUser(t);
    const session = await signInWithPassword(user);
    t.clock.advance(3600 * 1000 + 1000);
    const res = await apiClient(t).get('/api/auth/user', session.access_token);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(messages.auth.sessionExpired);
  });

  it('signs out this session only with scope local', async () => {
    const user = await buildUser(t);
    const here = await signInSession(t, user);
    const elsewhere = await signInSession(t, user);
    const res = await apiClient(t).post('/api/auth/logout', { scope: 'local' }, here.access_token);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();

    expect((await refresh(here.refresh_token)).status).toBe(401);
    expect((await apiClient(t).get('/api/auth/user', here.access_token)).status).toBe(401);
    expect((await refresh(elsewhere.refresh_token)).status).toBe(200);
  });

  it('signs out locally when no scope is given', async () => {
    const user = await buildUser(t);
    const here = await signInSession(t, user);
    const elsewhere = await signInSession(t, user);
    expect((await apiClient(t).post('/api/auth/logout', undefined, here.access_token)).status).toBe(204);
    expect((await refresh(here.refresh_token)).status).toBe(401);
    expect((await apiClient(t).get('/api/auth/user', elsewhere.access_token)).status).toBe(200);
  });

  it('signs out every session with scope global', async () => {
    const user = await buildUser(t);
    const here = await signInSession(t, user);
    const elsewhere = await signInSession(t, user);
    expect((await apiClient(t).post('/api/auth/logout', { scope: 'global' }, here.access_token)).status).toBe(204);
    for (const session of [here, elsewhere]) {
      expect((await refresh(session.refresh_token)).status).toBe(401);
      expect((await apiClient(t).get('/api/auth/user', session.access_token)).status).toBe(401);
    }
  });

  it('refuses to sign out without a session or with an unknown scope', async () => {
    expect((await apiClient(t).post('/api/auth/logout', { scope: 'global' })).status).toBe(401);
    const user = await buildUser(t);
    const session = await signInSession(t, user);
    expect((await apiClient(t).post('/api/auth/logout', { scope: 'everywhere' }, session.access_token)).status).toBe(400);
  });
});
