import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityMessages } from '../../../shared/second-factor';
import { buildTestApp, type TestApp } from '../../test/app';
import { apiClient, buildUser, signIn, type TestUser } from '../../test/factories';
import { SoftwareAuthenticator } from '../../test/passkey-authenticator';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set(new Date('2026-11-20T15:00:10Z'));
});
afterAll(() => t?.close());

const ORIGIN = 'http://jotline.test';
const api = () => apiClient(t);
const later = (ms: number) => t.clock.set(new Date(t.clock.now().getTime() + ms));

/** A user with a passkey on a fresh software authenticator. */
async function withPasskey(user?: TestUser, name = 'MacBook Touch ID') {
  const account = user ?? (await buildUser(t));
  const token = await signIn(t, account);
  const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });
  const options = await api().post('/api/auth/passkeys/options', {}, token);
  expect(options.status).toBe(200);
  const added = await api().post('/api/auth/passkeys', { name, response: authenticator.create(options.body) }, token);
  expect(added.status).toBe(201);
  return { user: account, token, authenticator, passkey: added.body as { id: string; name: string; created_at: string } };
}

const signInOptions = async (body: object = {}) => {
  const res = await api().post('/api/auth/passkey-options', body);
  expect(res.status).toBe(200);
  return res.body;
};

const passkeyGrant = (response: unknown) => api().post('/api/auth/token', { grant_type: 'passkey', response });

/** The passkey refusals logged for the user (or for nobody, when the user is unknown). */
const refusalsOf = (userId: string | null) =>
  t.app.ctx.db
    .selectFrom('security_events')
    .select(['details', 'severity'])
    .where('event_type', '=', 'passkey_refused')
    .where((eb) => (userId ? eb('user_id', '=', userId) : eb('user_id', 'is', null)))
    .execute()
    .then((rows) => rows.map((r) => JSON.parse(r.details!).reason as string));

describe('adding passkeys', () => {
  it('asks for a discoverable credential with user verification, for PUBLIC_URL host as the rp id', async () => {
    const user = await buildUser(t);
    const res = await api().post('/api/auth/passkeys/options', {}, await signIn(t, user));
    expect(res.body.rp).toEqual({ name: 'Jotline', id: 'jotline.test' });
    expect(res.body.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(res.body.attestation).toBe('none');
    expect(res.body.user.name).toBe(user.email);
  });

  it('adds, lists, renames and removes (with the password) a passkey', async () => {
    const { user, token, passkey } = await withPasskey();
    expect(passkey).toEqual({ id: expect.any(String), name: 'MacBook Touch ID', created_at: t.clock.now().toISOString(), last_used_at: null });
    const listed = await api().get('/api/auth/passkeys', token);
    expect(listed.body).toEqual({ passkeys: [passkey] });

    const renamed = await api().patch(`/api/auth/passkeys/${passkey.id}`, { name: '  Work laptop ' }, token);
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Work laptop');
    expect((await api().patch(`/api/auth/passkeys/${passkey.id}`, { name: '' }, token)).body.error.message).toBe(securityMessages.passkeyNameRequired);

    const remove = (password: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/auth/passkeys/${passkey.id}`, headers: { authorization: `Bearer ${token}` }, payload: { password } });
    const wrong = await remove('not-my-password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(securityMessages.passwordWrong);
    expect((await remove(user.password)).statusCode).toBe(204);
    expect((await api().get('/api/auth/passkeys', token)).body).toEqual({ passkeys: [] });
  });

  it('stops password guessing through passkey removal after 5 wrong passwords in 15 minutes', async () => {
    const { user, token, passkey } = await withPasskey();
    const remove = (password: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/auth/passkeys/${passkey.id}`, headers: { authorization: `Bearer ${token}` }, payload: { password } });
    for (let i = 0; i < 5; i++) expect((await remove(`guess-${i}`)).statusCode).toBe(400);
    expect((await remove(user.password)).statusCode).toBe(429);
    later(15 * 60_000 + 1000);
    expect((await remove(user.password)).statusCode).toBe(204);
  });

  it("neither lists, renames nor removes another user's passkey", async () => {
    const { passkey } = await withPasskey();
    const bob = await buildUser(t);
    const bobToken = await signIn(t, bob);
    expect((await api().get('/api/auth/passkeys', bobToken)).body).toEqual({ passkeys: [] });
    expect((await api().patch(`/api/auth/passkeys/${passkey.id}`, { name: 'mine now' }, bobToken)).status).toBe(404);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/auth/passkeys/${passkey.id}`, headers: { authorization: `Bearer ${bobToken}` }, payload: { password: bob.password } });
    expect(removed.statusCode).toBe(404);
  });

  it('refuses a registration from another origin, a replayed one and one whose challenge lapsed', async () => {
    const user = await buildUser(t);
    const token = await signIn(t, user);
    const authenticator = new SoftwareAuthenticator({ origin: ORIGIN });

    const options = await api().post('/api/auth/passkeys/options', {}, token);
    const elsewhere = await api().post('/api/auth/passkeys', { name: 'phish', response: authenticator.create(options.body, { origin: 'http://jotline.test.evil.example' }) }, token);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.message).toBe(securityMessages.passkeyRefused);

    const fresh = await api().post('/api/auth/passkeys/options', {}, token);
    const response = authenticator.create(fresh.body);
    expect((await api().post('/api/auth/passkeys', { name: 'one', response }, token)).status).toBe(201);
    expect((await api().post('/api/auth/passkeys', { name: 'again', response }, token)).status).toBe(400);

    const old = await api().post('/api/auth/passkeys/options', {}, token);
    later(5 * 60_000 + 1000);
    expect((await api().post('/api/auth/passkeys', { name: 'late', response: authenticator.create(old.body) }, token)).status).toBe(400);

    const unverified = await api().post('/api/auth/passkeys/options', {}, token);
    expect((await api().post('/api/auth/passkeys', { name: 'no uv', response: authenticator.create(unverified.body, { verifies: false }) }, token)).status).toBe(400);

    expect(await refusalsOf(user.id)).toEqual(['registration', 'challenge', 'challenge', 'registration']);
  });
});

describe('signing in with a passkey', () => {
  it('signs in with a discoverable credential and marks the passkey used', async () => {
    const { user, authenticator, passkey, token } = await withPasskey();
    const options = await signInOptions();
    expect(options.allowCredentials).toEqual([]);
    expect(options.rpId).toBe('jotline.test');
    expect(options.userVerification).toBe('required');
    later(60_000);
    const session = await passkeyGrant(authenticator.get(options));
    expect(session.status).toBe(200);
    expect(session.body.user.id).toBe(user.id);
    const [listed] = (await api().get('/api/auth/passkeys', token)).body.passkeys;
    expect(listed).toMatchObject({ id: passkey.id, last_used_at: t.clock.now().toISOString() });
  });

  it('counts as two factors: an admin signed in with a passkey reaches the admin routes', async () => {
    const admin = await buildUser(t, { isAdmin: true });
    const { authenticator } = await withPasskey(admin);
    const session = await passkeyGrant(authenticator.get(await signInOptions()));
    expect((await api().get('/api/admin/me', session.body.access_token)).status).toBe(200);
  });

  it('refuses a replayed assertion', async () => {
    const { user, authenticator } = await withPasskey();
    const assertion = authenticator.get(await signInOptions());
    expect((await passkeyGrant(assertion)).status).toBe(200);
    const replay = await passkeyGrant(assertion);
    expect(replay.status).toBe(400);
    expect(replay.body.error.message).toBe(securityMessages.passkeyRefused);
    expect(await refusalsOf(user.id)).toEqual([]); // the challenge names no one: logged without a user
  });

  it('refuses an assertion whose challenge lapsed (5 minutes)', async () => {
    const { authenticator } = await withPasskey();
    const options = await signInOptions();
    later(5 * 60_000 + 1000);
    expect((await passkeyGrant(authenticator.get(options))).status).toBe(400);
  });

  it('refuses a challenge we never gave', async () => {
    const { authenticator } = await withPasskey();
    expect((await passkeyGrant(authenticator.get({ challenge: 'bm90LW91cnM', rpId: 'jotline.test' }))).status).toBe(400);
  });

  it('refuses a wrong origin and a wrong rp id', async () => {
    const { user, authenticator } = await withPasskey();
    const wrongOrigin = await passkeyGrant(authenticator.get(await signInOptions(), { origin: 'http://evil.example' }));
    expect(wrongOrigin.status).toBe(401);
    const wrongRp = await passkeyGrant(authenticator.get(await signInOptions(), { rpId: 'evil.example' }));
    expect(wrongRp.status).toBe(401);
    const noVerification = await passkeyGrant(authenticator.get(await signInOptions(), { verifies: false }));
    expect(noVerification.status).toBe(401);
    expect(await refusalsOf(user.id)).toEqual(['assertion', 'assertion', 'assertion']);
  });

  it('refuses a signature counter that goes backwards, and takes an authenticator that keeps none', async () => {
    const { user, authenticator } = await withPasskey();
    expect((await passkeyGrant(authenticator.get(await signInOptions(), { counter: 7 }))).status).toBe(200);
    const cloned = await passkeyGrant(authenticator.get(await signInOptions(), { counter: 3 }));
    expect(cloned.status).toBe(401);
    expect(await refusalsOf(user.id)).toEqual(['assertion']);

    const uncounted = await withPasskey();
    for (let i = 0; i < 2; i++) {
      expect((await passkeyGrant(uncounted.authenticator.get(await signInOptions(), { counts: false }))).status).toBe(200);
    }
  });

  it('refuses a credential that is not (or no longer) registered', async () => {
    const { user, authenticator, passkey, token } = await withPasskey();
    await t.app.inject({ method: 'DELETE', url: `/api/auth/passkeys/${passkey.id}`, headers: { authorization: `Bearer ${token}` }, payload: { password: user.password } });
    expect((await passkeyGrant(authenticator.get(await signInOptions()))).status).toBe(401);
  });

  it("refuses a credential presented as another user's (its user handle changed)", async () => {
    const alice = await withPasskey();
    const bob = await withPasskey();
    const assertion = alice.authenticator.get(await signInOptions());
    assertion.response.userHandle = Buffer.from(bob.user.id).toString('base64url');
    expect((await passkeyGrant(assertion)).status).toBe(401);
  });
});

describe('a passkey as the second step', () => {
  it("answers mfa_required with 'passkey' to a password, and options naming that user's passkeys", async () => {
    const { user, authenticator } = await withPasskey();
    await withPasskey(user, 'Phone');
    const first = await api().post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password });
    expect(first.body).toMatchObject({ mfa_required: true, methods: ['passkey'] });
    const options = await signInOptions({ mfa_token: first.body.mfa_token });
    expect(options.allowCredentials).toHaveLength(2);
    const done = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, response: authenticator.get(options) });
    expect(done.status).toBe(200);
    expect(done.body.user.id).toBe(user.id);
  });

  it("refuses another user's passkey for the mfa_token, and an anonymous challenge in its place", async () => {
    const alice = await withPasskey();
    const bob = await withPasskey();
    const first = await api().post('/api/auth/token', { grant_type: 'password', email: alice.user.email, password: alice.user.password });
    const options = await signInOptions({ mfa_token: first.body.mfa_token });
    const bobs = bob.authenticator.get({ ...options, allowCredentials: [] });
    const refused = await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, response: bobs });
    expect(refused.status).toBe(400);
    expect(await refusalsOf(alice.user.id)).toEqual(['other_user']);

    const anonymous = alice.authenticator.get(await signInOptions());
    expect((await api().post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, response: anonymous })).status).toBe(400);
    // An mfa challenge is no anonymous sign-in either.
    const second = await api().post('/api/auth/token', { grant_type: 'password', email: alice.user.email, password: alice.user.password });
    const mfaOptions = await signInOptions({ mfa_token: second.body.mfa_token });
    expect((await passkeyGrant(alice.authenticator.get(mfaOptions))).status).toBe(400);
  });

  it('refuses options for an unknown or lapsed mfa_token', async () => {
    const res = await api().post('/api/auth/passkey-options', { mfa_token: 'not-a-token' });
    expect(res.status).toBe(401);
  });
});
