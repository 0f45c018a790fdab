import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityMessages } from '../../../shared/second-factor';
import { buildTestApp, type TestApp } from '../../test/app';
import { apiClient, buildUser, signIn, type TestUser } from '../../test/factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set(new Date('2026-11-20T15:00:10Z'));
});
afterAll(() => t?.close());

const api = () => apiClient(t);
const codeAt = (secret: string, at: Date) => generateSync({ secret, epoch: Math.floor(at.getTime() / 1000) });
const code = (secret: string) => codeAt(secret, t.clock.now());
/** Moves the clock on by 30-second steps (a new TOTP code). */
const nextStep = (steps = 1) => t.clock.set(new Date(t.clock.now().getTime() + steps * 30_000));

const passwordSignIn = (user: TestUser) => api().post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password });

/** Turns TOTP on for the user through the API; answers the secret and the recovery codes. */
async function withTotp(user: TestUser, token?: string) {
  const access = token ?? (await signIn(t, user));
  const setup = await api().post('/api/auth/totp', {}, access);
  expect(setup.status).toBe(200);
  const confirmed = await api().post('/api/auth/totp/confirm', { code: code(setup.body.secret) }, access);
  expect(confirmed.status).toBe(200);
  nextStep();
  return { secret: setup.body.secret as string, recoveryCodes: confirmed.body.recovery_codes as string[], access };
}

describe('setting up TOTP', () => {
  it('gives a secret and an otpauth URL, refuses a wrong code, and answers ten different recovery codes for a right one', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const setup = await api().post('/api/auth/totp', {}, token);
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{16,}$/);
    const url = new URL(setup.body.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(url.searchParams.get('secret')).toBe(setup.body.secret);
    expect(url.searchParams.get('issuer')).toBe('Jotline');

    const right = code(setup.body.secret);
    const wrong = right === '000000' ? '111111' : '000000';
    const refused = await api().post('/api/auth/totp/confirm', { code: wrong }, token);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(securityMessages.codeWrong);
    const malformed = await api().post('/api/auth/totp/confirm', { code: 'abc' }, token);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toBe(securityMessages.codeRequired);

    const confirmed = await api().post('/api/auth/totp/confirm', { code: right }, token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    expect(new Set(confirmed.body.recovery_codes).size).toBe(10);
    // Stored hashed: no code is in the table as given.
    const stored = await t.app.ctx.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(10);
    for (const c of confirmed.body.recovery_codes) expect(stored.map((s) => s.code_hash)).not.toContain(c);
    // Nor the secret.
    const factor = await t.app.ctx.db.selectFrom('totp_factors').select('secret').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(factor.secret).not.toContain(setup.body.secret);

    const again = await api().post('/api/auth/totp', {}, token);
    expect(again.status).toBe(409);
  });
});

describe('signing in with a second factor', () => {
  it('answers mfa_required to a password, and a session to the right code', async () => {
    const user = await buildUser(t);
    const { secret } = await withTotp(user);
    const first = await passwordSignIn(user);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ mfa_required: true, mfa_token: expect.any(String), methods: ['totp', 'recovery_code'] });
    expect(first.body.access_token).toBeUndefined();

    const done = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, code: code(secret) });
    expect(done.status).toBe(200);
    expect(done.body.user.id).toBe(user.id);
    expect((await api().get('/api/auth/user', done.body.access_token)).status).toBe(200);
    // The mfa_token is used up.
    const twice = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, code: code(secret) });
    expect(twice.status).toBe(401);
  });

  it('accepts a code once: the same code within its window is refused', async () => {
    const user = await buildUser(t);
    const { secret } = await withTotp(user);
    const used = code(secret);
    const one = await passwordSignIn(user);
    expect((await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: one.body.mfa_token, code: used })).status).toBe(200);
    const two = await passwordSignIn(user);
    const replay = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: two.body.mfa_token, code: used });
    expect(replay.status).toBe(400);
    expect(replay.body.error.message).toBe(securityMessages.codeWrong);
    // A code of one step earlier is refused too once a later one was used; the next step's works.
    nextStep();
    expect((await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: two.body.mfa_token, code: code(secret) })).status).toBe(200);
  });

  it('accepts a code of the step before or after now, not two steps away', async () => {
    const user = await buildUser(t);
    const { secret } = await withTotp(user);
    const now = t.clock.now().getTime();
    const far = await passwordSignIn(user);
    expect((await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: far.body.mfa_token, code: codeAt(secret, new Date(now - 60_000)) })).status).toBe(400);
    expect((await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: far.body.mfa_token, code: codeAt(secret, new Date(now + 30_000)) })).status).toBe(200);
  });

  it('takes each recovery code once', async () => {
    const user = await buildUser(t);
    const { recoveryCodes } = await withTotp(user);
    const one = await passwordSignIn(user);
    const ok = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: one.body.mfa_token, recovery_code: recoveryCodes[0]!.toUpperCase() });
    expect(ok.status).toBe(200);
    const two = await passwordSignIn(user);
    const again = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: two.body.mfa_token, recovery_code: recoveryCodes[0] });
    expect(again.status).toBe(400);
    expect((await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: two.body.mfa_token, recovery_code: recoveryCodes[1] })).status).toBe(200);
  });

  it('lets an mfa_token lapse after 5 minutes', async () => {
    const user = await buildUser(t);
    const { secret } = await withTotp(user);
    const first = await passwordSignIn(user);
    t.clock.set(new Date(t.clock.now().getTime() + 5 * 60_000 + 1000));
    const late = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, code: code(secret) });
    expect(late.status).toBe(401);
    expect(late.body.error.message).toBe(securityMessages.mfaTokenExpired);
  });

  it('ends an mfa_token at the sixth wrong code, even for a right one after it', async () => {
    const user = await buildUser(t);
    const { secret } = await withTotp(user);
    const first = await passwordSignIn(user);
    const right = code(secret);
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) {
      expect((await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, code: wrong })).status).toBe(400);
    }
    const sixth = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, code: wrong });
    expect(sixth.status).toBe(400);
    const after = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, code: right });
    expect(after.status).toBe(401);
    // Five wrong codes leave it alive.
    const second = await passwordSignIn(user);
    for (let i = 0; i < 5; i++) await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: second.body.mfa_token, code: wrong });
    expect((await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: second.body.mfa_token, code: right })).status).toBe(200);
  });

  it('stops guessing across new mfa_tokens: 20 wrong codes in 15 minutes lock the second step', async () => {
    const user = await buildUser(t);
    const { secret } = await withTotp(user);
    const right = code(secret);
    const wrong = right === '123456' ? '654321' : '123456';
    for (let round = 0; round < 4; round++) {
      const first = await passwordSignIn(user);
      for (let i = 0; i < 5; i++) {
        expect((await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, code: wrong })).status).toBe(400);
      }
    }
    const locked = await passwordSignIn(user);
    const refused = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: locked.body.mfa_token, code: right });
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(securityMessages.tooManyCodes);
    t.clock.set(new Date(t.clock.now().getTime() + 15 * 60_000 + 1000));
    const later = await passwordSignIn(user);
    expect((await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: later.body.mfa_token, code: code(secret) })).status).toBe(200);
  });

  it('asks a texted sign-in link and a password-recovery link for the second step too', async () => {
    const user = await buildUser(t);
    const { secret } = await withTotp(user);
    const { issueOneTimeToken } = await import('../one-time-tokens');
    const link = await issueOneTimeToken(t.app.ctx.db, t.clock.now(), user.id, 'sign_in_link');
    const byLink = await api().post('/api/auth/token', { grant_type: 'link', token: link });
    expect(byLink.body).toMatchObject({ mfa_required: true, methods: ['totp', 'recovery_code'] });
    const recovery = await issueOneTimeToken(t.app.ctx.db, t.clock.now(), user.id, 'recovery');
    const byRecovery = await api().post('/api/auth/verify', { token_hash: recovery, type: 'recovery' });
    expect(byRecovery.body).toMatchObject({ mfa_required: true });
    expect(byRecovery.body.access_token).toBeUndefined();
    const done = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: byRecovery.body.mfa_token, code: code(secret) });
    expect(done.status).toBe(200);
  });

  it('turns TOTP off with a current code, and sign-in answers a session again', async () => {
    const user = await buildUser(t);
    const { secret, access } = await withTotp(user);
    const wrong = code(secret) === '000000' ? '111111' : '000000';
    expect((await api().delete('/api/auth/totp', access)).status).toBe(400);
    const refused = await t.app.inject({ method: 'DELETE', url: '/api/auth/totp', headers: { authorization: `Bearer ${access}` }, payload: { code: wrong } });
    expect(refused.statusCode).toBe(400);
    const off = await t.app.inject({ method: 'DELETE', url: '/api/auth/totp', headers: { authorization: `Bearer ${access}` }, payload: { code: code(secret) } });
    expect(off.statusCode).toBe(204);
    const signedIn = await passwordSignIn(user);
    expect(signedIn.body.access_token).toEqual(expect.any(String));
    expect(await t.app.ctx.db.selectFrom('recovery_codes').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });
});

describe('admin routes', () => {
  it('refuse a session signed in without a second factor, and take one signed in with it, refreshed too', async () => {
    const admin = await buildUser(t, { isAdmin: true });
    const plain = await passwordSignIn(admin);
    const refused = await api().get('/api/admin/me', plain.body.access_token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('MFA_REQUIRED');

    // Setting up the first second factor in that session proves it.
    const { secret } = await withTotp(admin, plain.body.access_token);
    expect((await api().get('/api/admin/me', plain.body.access_token)).status).toBe(200);

    const first = await passwordSignIn(admin);
    const mfa = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, code: code(secret) });
    expect((await api().get('/api/admin/me', mfa.body.access_token)).status).toBe(200);
    const refreshed = await api().post('/api/auth/token', { grant_type: 'refresh_token', refresh_token: mfa.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect((await api().get('/api/admin/metrics', refreshed.body.access_token)).status).toBe(200);
  });

  it('still refuse a non-admin with a second factor', async () => {
    const user = await buildUser(t);
    const { access } = await withTotp(user);
    const res = await api().get('/api/admin/me', access);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });
});

describe('housekeeping', () => {
  it('forgets mfa_tokens and passkey challenges a day after they lapsed, and records of sessions long ended', async () => {
    const { jobDefinitions } = await import('../../jobs/definitions');
    const job = jobDefinitions.find((j) => j.name === 'lapsed-sign-in-rows')!;
    const user = await buildUser(t);
    await withTotp(user);
    const first = await passwordSignIn(user);
    expect(first.body.mfa_token).toEqual(expect.any(String));
    const { challenge } = (await api().post('/api/auth/passkey-options', {})).body;
    const count = async () => ({
      mfa: (await t.app.ctx.db.selectFrom('mfa_challenges').select('id').where('user_id', '=', user.id).execute()).length,
      challenges: (await t.app.ctx.db.selectFrom('webauthn_challenges').select('id').where('challenge', '=', challenge).execute()).length,
    });
    await job.run(t.app.ctx);
    expect(await count()).toEqual({ mfa: 1, challenges: 1 });
    t.clock.set(new Date(t.clock.now().getTime() + 86_400_000 + 6 * 60_000));
    await job.run(t.app.ctx);
    expect(await count()).toEqual({ mfa: 0, challenges: 0 });
  });
});
