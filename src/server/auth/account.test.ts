import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { apiClient, buildUser, signIn, signInSession } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';

describe('the signed-in user: GET and PUT /api/auth/user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('needs a bearer token', async () => {
    const res = await apiClient(t).get('/api/auth/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'UNAUTHORIZED', message: messages.auth.notSignedIn } });
    expect((await apiClient(t).get('/api/auth/user', 'forged.token.value')).status).toBe(401);
  });

  it('presents the user without anything private', async () => {
    const user = await buildUser(t, { isAdmin: true, verified: false });
    const res = await apiClient(t).get('/api/auth/user', await signIn(t, user));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.id,
      email: user.email,
      email_verified: true,
      phone: user.phone,
      phone_verified: false,
      sign_up_lapses_at: expect.any(String),
      is_admin: true,
      created_at: expect.any(String),
      second_factors: [],
    });
  });

  it('refuses a new password that breaks the one rule sign-up holds (8 characters, upper and lower case, a digit)', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    for (const password of ['abcdef', 'Abcdef1', 'abcdefg1', 'ABCDEFG1', 'Abcdefgh', '', undefined]) {
      const res = await apiClient(t).put('/api/auth/user', { password }, token);
      expect(res.status, String(password)).toBe(400);
      expect(res.body.error.message).toBe(messages.signUp.weakPassword);
    }
  });

  it('changes the password and signs out every other session', async () => {
    const user = await buildUser(t);
    const here = await signInSession(t, user);
    const elsewhere = await signInSession(t, user);

    const res = await apiClient(t).put('/api/auth/user', { password: 'Simple123' }, here.access_token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email });

    const signInWith = (password: string) => apiClient(t).post('/api/auth/token', { grant_type: 'password', email: user.email, password });
    expect((await signInWith(user.password)).status).toBe(400);
    expect((await signInWith('Simple123')).status).toBe(200);

    expect((await apiClient(t).get('/api/auth/user', here.access_token)).status).toBe(200);
    expect((await apiClient(t).post('/api/auth/token', { grant_type: 'refresh_token', refresh_token: here.refresh_token })).status).toBe(200);
    expect((await apiClient(t).get('/api/auth/user', elsewhere.access_token)).status).toBe(401);
    expect((await apiClient(t).post('/api/auth/token', { grant_type: 'refresh_token', refresh_token: elsewhere.refresh_token })).status).toBe(401);
  });
});
