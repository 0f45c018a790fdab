import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app';
import { bearer, buildUser, uniqueIp, type TestUser } from '../../test/factories';

const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set(new Date('2026-11-20T15:00:00Z'));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t?.close());

const later = (ms: number) => t.clock.set(new Date(t.clock.now().getTime() + ms));

async function request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { token?: string; body?: object; agent?: string } = {}) {
  const res = await t.app.inject({
    method,
    url,
    remoteAddress: uniqueIp(),
    headers: { ...(options.token ? bearer(options.token) : {}), ...(options.agent ? { 'user-agent': options.agent } : {}) },
    ...(options.body ? { payload: options.body } : {}),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
}

const signInFrom = async (user: TestUser, agent: string) => {
  const res = await request('POST', '/api/auth/token', { agent, body: { grant_type: 'password', email: user.email, password: user.password } });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; refresh_token: string };
};

const mailsTo = (email: string) => t.app.ctx.simulators.mail!.outbox.filter((m) => m.to === email);

describe('sessions', () => {
  it('lists where the user is signed in, with the device and which one is this', async () => {
    const user = await buildUser(t);
    const laptop = await signInFrom(user, MAC_CHROME);
    later(60_000);
    const pc = await signInFrom(user, WINDOWS_FIREFOX);
    const res = await request('GET', '/api/auth/sessions', { token: laptop.access_token });
    expect(res.status).toBe(200);
    expect(res.body.sessions).toEqual([
      { id: expect.any(String), created_at: t.clock.now().toISOString(), last_seen_at: t.clock.now().toISOString(), device: 'Firefox on Windows', current: false },
      { id: expect.any(String), created_at: expect.any(String), last_seen_at: expect.any(String), device: 'Chrome on macOS', current: true },
    ]);
    // A refresh keeps the session (and says when it was last seen); a signed-out one is gone.
    later(60_000);
    const refreshed = await request('POST', '/api/auth/token', { body: { grant_type: 'refresh_token', refresh_token: laptop.refresh_token } });
    const after = await request('GET', '/api/auth/sessions', { token: refreshed.body.access_token });
    expect(after.body.sessions[0]).toMatchObject({ device: 'Chrome on macOS', current: true, last_seen_at: t.clock.now().toISOString() });
    expect(await request('POST', '/api/auth/logout', { token: pc.access_token, body: { scope: 'local' } })).toMatchObject({ status: 204 });
    expect((await request('GET', '/api/auth/sessions', { token: refreshed.body.access_token })).body.sessions).toHaveLength(1);
  });

  it('ends another session at once: its access token, its refresh token and its open event stream', async () => {
    const user = await buildUser(t);
    const here = await signInFrom(user, MAC_CHROME);
    const there = await signInFrom(user, IPHONE_SAFARI);
    const ticket = await request('POST', '/api/events/ticket', { token: there.access_token });
    const abort = new AbortController();
    const stream = await fetch(`${base}/api/events?ticket=${ticket.body.ticket}`, { signal: abort.signal });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read(); // connected

    const sessions = (await request('GET', '/api/auth/sessions', { token: here.access_token })).body.sessions as Array<{ id: string; current: boolean }>;
    const other = sessions.find((s) => !s.current)!;
    expect((await request('DELETE', `/api/auth/sessions/${other.id}`, { token: here.access_token, agent: MAC_CHROME })).status).toBe(204);

    // The stream ends (read until done; the test's own timeout is the bound).
    for (;;) if ((await reader.read()).done) break;
    abort.abort();
    expect((await request('GET', '/api/auth/user', { token: there.access_token })).status).toBe(401);
    expect((await request('POST', '/api/auth/token', { body: { grant_type: 'refresh_token', refresh_token: there.refresh_token } })).status).toBe(401);
    expect((await request('GET', '/api/auth/user', { token: here.access_token })).status).toBe(200);
    expect((await request('DELETE', `/api/auth/sessions/${other.id}`, { token: here.access_token })).status).toBe(404);
  });

  it("cannot end another user's session", async () => {
    const alice = await buildUser(t);
    const bob = await buildUser(t);
    const aliceSession = await signInFrom(alice, MAC_CHROME);
    const bobSession = await signInFrom(bob, MAC_CHROME);
    const [aliceRow] = (await request('GET', '/api/auth/sessions', { token: aliceSession.access_token })).body.sessions;
    expect((await request('DELETE', `/api/auth/sessions/${aliceRow.id}`, { token: bobSession.access_token })).status).toBe(404);
    expect((await request('GET', '/api/auth/user', { token: aliceSession.access_token })).status).toBe(200);
  });
});

describe('the security log', () => {
  it("lists the user's own sign-ins, failures and changes, newest first, with the device", async () => {
    const user = await buildUser(t);
    const stranger = await buildUser(t);
    await signInFrom(stranger, MAC_CHROME);
    later(1000);
    await signInFrom(user, MAC_CHROME);
    later(1000);
    expect((await request('POST', '/api/auth/token', { agent: WINDOWS_FIREFOX, body: { grant_type: 'password', email: user.email, password: 'wrong-password' } })).status).toBe(400);
    later(1000);
    const session = await signInFrom(user, MAC_CHROME);
    later(1000);
    expect((await request('PUT', '/api/auth/user', { token: session.access_token, agent: MAC_CHROME, body: { password: 'Another123' } })).status).toBe(200);
    later(1000);
    expect((await request('POST', '/api/auth/totp', { token: session.access_token })).status).toBe(200);

    const log = await request('GET', '/api/auth/events', { token: session.access_token });
    expect(log.status).toBe(200);
    expect(log.body.events).toEqual([
      { at: new Date(t.clock.now().getTime() - 1000).toISOString(), kind: 'password_changed', device: 'Chrome on macOS' },
      { at: expect.any(String), kind: 'sign_in', method: 'password', device: 'Chrome on macOS' },
      { at: expect.any(String), kind: 'sign_in_failed', device: null },
      { at: expect.any(String), kind: 'sign_in', method: 'password', device: 'Chrome on macOS' },
    ]);
  });

  it('keeps 90 days', async () => {
    const user = await buildUser(t);
    await signInFrom(user, MAC_CHROME);
    later(91 * 86_400_000);
    const session = await signInFrom(user, MAC_CHROME);
    const log = await request('GET', '/api/auth/events', { token: session.access_token });
    expect(log.body.events).toHaveLength(1);
  });

  it('e-mails the user when a device it has not seen signs in, and not for a known one', async () => {
    const user = await buildUser(t);
    await signInFrom(user, MAC_CHROME);
    expect(mailsTo(user.email)).toHaveLength(0); // the first sign-in is no news
    await signInFrom(user, MAC_CHROME);
    expect(mailsTo(user.email)).toHaveLength(0);
    await signInFrom(user, IPHONE_SAFARI);
    const [mail] = mailsTo(user.email);
    expect(mail!.subject).toBe('New sign-in to your Jotline account');
    expect(mail!.text).toContain('Safari on iOS');
  });

  it('sends no sign-in mail to an address its owner never confirmed (a typo, or someone else\'s)', async () => {
    const user = await buildUser(t, { emailVerified: false });
    await signInFrom(user, MAC_CHROME);
    await signInFrom(user, IPHONE_SAFARI);
    expect(mailsTo(user.email)).toHaveLength(0);
  });
});
