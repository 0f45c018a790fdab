import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../shared/journal';
import { createEntry, journalUser, multipart, testImage, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { SoftwareAuthenticator } from '../test/passkey-authenticator';
import { bearer, buildUser, signIn, signInSession, uniqueIp, type TestUser } from '../test/factories';
import { routeRecorder } from '../test/registered-routes';
import { testAudio } from '../test/audio';

/**
 * Who may call each route. Every route the app registers must have a row here, so a new route
 * cannot ship without someone deciding who may call it.
 * - user: a signed-in user, on their own data only;
 * - admin: a signed-in admin;
 * - public: anyone (sign-up, sign-in, recovery; the web pages);
 * - webhook: a provider proving itself with a signature;
 * - metrics: a scraper holding METRICS_TOKEN;
 * - dev: the simulators' tools, registered only with the simulators (production refuses those).
 */
type Access = 'user' | 'admin' | 'public' | 'webhook' | 'metrics' | 'dev';

interface Row {
  access: Access;
  /** A body that passes validation, so the request reaches the ownership check. */
  body?: Record<string, unknown>;
  /** The route answers with an open event stream when it succeeds: never opened here. */
  stream?: boolean;
  /** For a public route, the answers it may give (when not just "no server error"). */
  statuses?: number[];
}

const matrix: Record<string, Row> = {
  // A photo, to whoever holds an unexpired signed link (the link is the credential).
  'GET /media/*': { access: 'public' },
  'GET /auth': { access: 'public' },
  'GET /healthz': { access: 'public' },
  'GET /metrics': { access: 'metrics' },

  'POST /api/auth/signup': { access: 'public' },
  'POST /api/auth/verify-phone': { access: 'public' },
  'GET /api/auth/verification-events': { access: 'public', stream: true },
  'POST /api/auth/token': { access: 'public' },
  'POST /api/auth/link': { access: 'public' },
  'POST /api/auth/recover': { access: 'public' },
  'POST /api/auth/verify': { access: 'public' },
  'GET /api/auth/user': { access: 'user' },
  'PUT /api/auth/user': { access: 'user', body: { password: 'Another123' } },
  'DELETE /api/auth/user': { access: 'user', body: { confirmationText: 'DELETE' } },
  'POST /api/auth/logout': { access: 'user', body: { scope: 'global' } },
  'POST /api/auth/verify/resend': { access: 'user', body: {} },
  // Passkeys, the second factor, sessions and the security log: each the caller's own.
  'POST /api/auth/passkey-options': { access: 'public' },
  'POST /api/auth/passkeys/options': { access: 'user' },
  'POST /api/auth/passkeys': { access: 'user', body: { name: 'Not mine', response: { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'e30' } } } },
  'GET /api/auth/passkeys': { access: 'user' },
  'PATCH /api/auth/passkeys/:id': { access: 'user', body: { name: 'Taken over' } },
  'DELETE /api/auth/passkeys/:id': { access: 'user', body: { password: 'Journal123' } },
  'POST /api/auth/totp': { access: 'user' },
  'POST /api/auth/totp/confirm': { access: 'user', body: { code: '123456' } },
  'DELETE /api/auth/totp': { access: 'user', body: { code: '123456' } },
  'GET /api/auth/sessions': { access: 'user' },
  'DELETE /api/auth/sessions/:id': { access: 'user' },
  'GET /api/auth/events': { access: 'user' },
  // A proof of the person again (auth/fresh-proof.ts): of the caller's own password or passkey.
  'POST /api/auth/confirm': { access: 'user', body: { password: 'Journal123' } },

  'GET /api/entries': { access: 'user' },
  'POST /api/entries': { access: 'user', body: { content: 'a line of my own' } },
  'PATCH /api/entries/:id': { access: 'user', body: { content: 'overwritten by someone else' } },
  'DELETE /api/entries/:id': { access: 'user' },
  'POST /api/entries/:id/photos': { access: 'user' },
  'DELETE /api/entries/:id/photos/:photoId': { access: 'user' },
  'POST /api/entries/:id/recordings': { access: 'user' },
  'DELETE /api/entries/:id/recordings/:recordingId': { access: 'user' },
  'POST /api/entries/:id/recordings/:recordingId/transcribe': { access: 'user' },
  'GET /api/export': { access: 'user' },
  'GET /api/stats': { access: 'user' },
  'GET /api/on-this-day': { access: 'user' },
  'POST /api/import': { access: 'user' },
  'GET /api/imports/:id': { access: 'user' },
  // The Vault: each call works on the caller's own vault only (a stranger's body names none of alice's).
  'GET /api/vault': { access: 'user' },
  'PUT /api/vault': { access: 'user', body: { public_key: randomBytes(32).toString('base64'), wrapped_keys: { v: 1 } } },
  'PUT /api/vault/keys': { access: 'user', body: { public_key: randomBytes(32).toString('base64'), wrapped_keys: { v: 1 } } },
  'POST /api/vault/seal': { access: 'user' },
  'POST /api/vault/unseal': { access: 'user' },
  'GET /api/vault/sealed': { access: 'user' },
  'POST /api/vault/opened': { access: 'user', body: { entries: [{ id: 'entry', segments: 1, content: 'opened', title: null, tags: [], photos: [], recordings: [] }] } },
  'GET /api/vault/imported': { access: 'user' },
  'POST /api/vault/imported': {
    access: 'user',
    body: {
      entries: [
        { import_key: randomBytes(32).toString('base64url'), entry_date: '2026-11-20', created_at: '2026-11-20T09:00:00.000Z', time_zone: 'UTC', source: 'web', word_count: 2, sealed: [randomBytes(80).toString('base64')] },
      ],
    },
  },
  'DELETE /api/vault': { access: 'user' },
  'GET /api/events': { access: 'user', stream: true },
  'POST /api/events/ticket': { access: 'user' },
  'GET /api/profile': { access: 'user' },
  'PATCH /api/profile': { access: 'user', body: { reminder_enabled: false } },
  'GET /api/subscription': { access: 'user' },
  'POST /api/billing/checkout': { access: 'user', body: { plan: 'monthly' } },
  'POST /api/billing/checkout/complete': { access: 'user', body: { session_id: 'cs_not_theirs' } },
  'POST /api/billing/portal': { access: 'user' },

  'GET /api/admin/me': { access: 'admin' },
  'GET /api/admin/metrics': { access: 'admin' },
  'POST /api/admin/refresh-cache': { access: 'admin' },
  'GET /api/admin/subscribers': { access: 'admin' },
  'POST /api/admin/sms-test': { access: 'admin', body: { type: 'basic' } },
  'GET /api/admin/sms-tests': { access: 'admin' },
  'GET /api/admin/sms-health': { access: 'admin' },
  'GET /api/admin/trial-users': { access: 'admin' },
  'GET /api/admin/users': { access: 'admin' },
  'DELETE /api/admin/users/:id': { access: 'admin', body: { confirmationText: 'DELETE' } },

  'POST /webhooks/stripe': { access: 'webhook' },
  'POST /webhooks/twilio/sms': { access: 'webhook' },
  'POST /webhooks/twilio/status': { access: 'webhook' },
  'POST /webhooks/twilio/voice': { access: 'webhook' },
  'POST /webhooks/twilio/recording': { access: 'webhook' },

  'GET /api/dev/phone/messages': { access: 'dev' },
  'POST /api/dev/phone/send': { access: 'dev' },
  'POST /api/dev/phone/calls': { access: 'dev' },
  'GET /api/dev/phone/recordings/:file': { access: 'dev' },
  'GET /api/dev/mail': { access: 'dev' },
  'GET /api/dev/billing/sessions/:id': { access: 'dev' },
  'POST /api/dev/billing/sessions/:id/pay': { access: 'dev' },
  'POST /api/dev/billing/sessions/:id/cancel': { access: 'dev' },
  'GET /api/dev/billing/portal/:id': { access: 'dev' },
  'POST /api/dev/billing/portal/:id/plan': { access: 'dev' },
  'POST /api/dev/billing/portal/:id/cancel': { access: 'dev' },
  'POST /api/dev/billing/portal/:id/renew': { access: 'dev' },
};

let t: TestApp;
// Every route the app registers, as Fastify adds it.
const routes = routeRecorder();
let alice: JournalTestUser & { account: TestUser };
let aliceEntry: JournalEntry;
let aliceSecret: string;
let alicePasskeyId: string;
let aliceSessionId: string;
let aliceRecordingId: string;

beforeAll(async () => {
  t = await buildTestApp({}, { onRoute: routes.onRoute });
  t.clock.set(new Date('2026-11-20T15:00:00Z'));
  const account = await buildUser(t, { timezone: 'UTC' });
  const session = await signInSession(t, account);
  const token = session.access_token;
  aliceSessionId = (await t.app.ctx.db.selectFrom('auth_sessions').select('id').where('user_id', '=', account.id).executeTakeFirstOrThrow()).id;
  const options = await t.app.inject({ method: 'POST', url: '/api/auth/passkeys/options', headers: bearer(token), payload: {} });
  const passkey = await t.app.inject({
    method: 'POST',
    url: '/api/auth/passkeys',
    headers: bearer(token),
    payload: { name: 'Alice laptop', response: new SoftwareAuthenticator({ origin: 'http://jotline.test' }).create(options.json()) },
  });
  expect(passkey.statusCode).toBe(201);
  alicePasskeyId = passkey.json().id;
  alice = { id: account.id, token, headers: bearer(token), account };
  aliceSecret = `alice-secret-${randomBytes(6).toString('hex')}`;
  aliceEntry = await createEntry(t, alice, { content: `Only I may read this: ${aliceSecret}`, title: aliceSecret, tags: aliceSecret });
  const form = await multipart({}, [{ name: 'kitchen.jpg', bytes: await testImage(), type: 'image/jpeg' }]);
  const added = await t.app.inject({ method: 'POST', url: `/api/entries/${aliceEntry.id}/photos`, headers: { ...alice.headers, ...form.headers }, payload: form.payload });
  expect(added.statusCode).toBe(201);
  aliceEntry = added.json();
  expect(aliceEntry.photos).toHaveLength(1);
  const voice = await multipart({}, [{ name: 'note.wav', bytes: await testAudio('wav-mulaw', 1), type: 'audio/wav' }], 'file');
  const recorded = await t.app.inject({ method: 'POST', url: `/api/entries/${aliceEntry.id}/recordings`, headers: { ...alice.headers, ...voice.headers }, payload: voice.payload });
  expect(recorded.statusCode).toBe(201);
  aliceRecordingId = recorded.json().recording.id;
});

afterAll(async () => {
  await t?.close();
});

/** A route pattern with alice's ids in it: another user must not reach what they name. */
function aliceUrl(url: string): string {
  const id = url.startsWith('/api/admin/users')
    ? alice.id
    : url.startsWith('/api/auth/passkeys')
      ? alicePasskeyId
      : url.startsWith('/api/auth/sessions')
        ? aliceSessionId
        : aliceEntry.id;
  return url.replace(':photoId', aliceEntry.photos[0]!.id).replace(':recordingId', aliceRecordingId).replace(':id', id).replace('*', 'some-page');
}

async function call(key: string, headers: Record<string, string>) {
  const [method, url] = key.split(' ') as [string, string];
  const row = matrix[key]!;
  return t.app.inject({
    method: method as 'GET',
    url: aliceUrl(url),
    remoteAddress: uniqueIp(),
    headers,
    ...(row.body && method !== 'GET' ? { payload: row.body } : {}),
  });
}

/** Nothing of alice's may appear in an answer to anyone else. */
function expectNothingOfAlice(body: string) {
  for (const secret of [aliceSecret, alice.account.email, alice.account.phone, alice.account.phone.slice(2), aliceEntry.photos[0]!.id]) {
    expect(body).not.toContain(secret);
  }
}

const keys = Object.keys(matrix);
const byAccess = (...access: Access[]) => keys.filter((key) => access.includes(matrix[key]!.access));

describe('the authorisation matrix', () => {
  it('has one row for every registered route, and no row for a route that is gone', () => {
    const registered = routes.routes().map((route) => `${route.method} ${route.url}`);
    expect(registered.filter((key) => !(key in matrix)), 'routes without a row: decide who may call them').toEqual([]);
    expect(keys.filter((key) => !registered.includes(key)), 'rows for routes that no longer exist').toEqual([]);
  });

  it.each(byAccess('user', 'admin', 'metrics'))('%s refuses an anonymous caller', async (key) => {
    const res = await call(key, {});
    expect(res.statusCode).toBe(401);
    expectNothingOfAlice(res.body);
  });

  it.each(byAccess('user', 'admin', 'metrics'))('%s refuses a garbage token', async (key) => {
    for (const authorization of ['Bearer garbage', `Bearer ${alice.token.slice(0, -4)}abcd`, 'Basic YWxpY2U6c2VjcmV0']) {
      const res = await call(key, { authorization });
      expect(res.statusCode, authorization).toBe(401);
      expectNothingOfAlice(res.body);
    }
  });

  it.each(byAccess('user').filter((key) => !matrix[key]!.stream))("%s never reaches another user's data", async (key) => {
    const bob = await journalUser(t);
    const res = await call(key, bob.headers);
    expect(res.statusCode).toBeLessThan(500);
    if (key.includes(':id')) expect([400, 403, 404, 415]).toContain(res.statusCode);
    expectNothingOfAlice(res.body);
  });

  it.each(byAccess('admin'))('%s refuses a signed-in user who is not an admin', async (key) => {
    const bob = await journalUser(t);
    const res = await call(key, bob.headers);
    expect(res.statusCode).toBe(403);
    expectNothingOfAlice(res.body);
  });

  it.each(byAccess('admin'))('%s refuses an admin whose session passed no second factor', async (key) => {
    const admin = await buildUser(t, { isAdmin: true });
    const res = await call(key, bearer(await signIn(t, admin, { mfa: false })));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('MFA_REQUIRED');
    expectNothingOfAlice(res.body);
  });

  it.each(byAccess('metrics'))('%s refuses a user session in place of the metrics token', async (key) => {
    const res = await call(key, alice.headers);
    expect(res.statusCode).toBe(401);
  });

  it.each(byAccess('webhook'))('%s refuses a request without a valid signature', async (key) => {
    const attempts: Array<Record<string, string>> = [{}, { 'x-twilio-signature': 'forged', 'stripe-signature': 't=1,v1=forged' }, alice.headers];
    for (const headers of attempts) {
      const res = await call(key, headers);
      expect([400, 401, 403]).toContain(res.statusCode);
    }
  });

  it.each(byAccess('public', 'dev'))('%s answers anyone without a server error, whatever token comes along', async (key) => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer garbage' }];
    for (const headers of attempts) {
      const res = await call(key, headers);
      const statuses = matrix[key]!.statuses;
      if (statuses) expect(statuses).toContain(res.statusCode);
      else expect(res.statusCode).toBeLessThan(500);
      if (!key.startsWith('GET /api/dev/')) expectNothingOfAlice(res.body);
    }
  });

  it("leaves alice's journal, photo and session as they were", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/entries', headers: alice.headers });
    expect(res.statusCode).toBe(200);
    const [entry] = res.json().entries as JournalEntry[];
    expect(entry).toMatchObject({ id: aliceEntry.id, content: aliceEntry.content, title: aliceSecret });
    expect(entry!.photos.map((photo) => photo.id)).toEqual([aliceEntry.photos[0]!.id]);
    expect(entry!.recordings!.map((recording) => recording.id)).toEqual([aliceRecordingId]);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: alice.headers });
    expect(me.json()).toMatchObject({ id: alice.id, email: alice.account.email });
    const passkeys = await t.app.inject({ method: 'GET', url: '/api/auth/passkeys', headers: alice.headers });
    expect(passkeys.json().passkeys).toMatchObject([{ id: alicePasskeyId, name: 'Alice laptop' }]);
  });
});
