import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../shared/messages';
import { apiClient, buildUser, uniqueEmail, uniqueIp, type TestUser } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';
import { issueOneTimeToken } from './one-time-tokens';
import { deleteUser } from './repo';

const NOW = new Date('2026-11-23T17:00:00.000Z');
const MINUTE = 60_000;

describe('sign-in limits under bursts, and the owner never locked out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  beforeEach(() => t.clock.set(NOW));
  afterAll(() => t.close());

  const passwordChecks = async (where: { email?: string; ip?: string }) => {
    let query = t.app.ctx.db.selectFrom('security_events').select('id').where('event_type', '=', 'login_failure');
    if (where.email) query = query.where('identifier', '=', where.email);
    if (where.ip) query = query.where('ip', '=', where.ip);
    return (await query.execute()).length;
  };
  const signInFrom = (ip: string, email: string, password: string) =>
    apiClient(t, ip).post('/api/auth/token', { grant_type: 'password', email, password });
  const failFrom = async (ip: string, user: TestUser, times: number) => {
    for (let i = 0; i < times; i++) expect((await signInFrom(ip, user.email, `Wrong-${i}-x`)).status).toBe(400);
  };

  it('checks the password exactly 5 times for 50 parallel wrong attempts', async () => {
    const user = await buildUser(t);
    const ip = uniqueIp();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => signInFrom(ip, user.email, `Wrong-${i}-x`)));
    expect(answers.filter((a) => a.status === 400)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(45);
    expect(await passwordChecks({ email: user.email })).toBe(5);
  });

  it('gives no session to the right password in the middle of a burst once the limit is reached', async () => {
    const user = await buildUser(t);
    const ip = uniqueIp();
    await Promise.all(Array.from({ length: 5 }, (_, i) => signInFrom(ip, user.email, `Wrong-${i}-x`)));
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signInFrom(ip, user.email, i === 10 ? user.password : `Wrong-more-${i}`)),
    );
    expect(burst.map((a) => a.status)).toEqual(Array(20).fill(429));
    expect(burst[10]!.body).toEqual({ error: { code: 'RATE_LIMITED', message: messages.signIn.rateLimited } });
    expect(await passwordChecks({ email: user.email })).toBe(5);
  });

  it('holds the per-address cap under a burst of 100 sign-ins for different e-mail addresses', async () => {
    const ip = uniqueIp();
    const answers = await Promise.all(Array.from({ length: 100 }, () => signInFrom(ip, uniqueEmail('burst'), 'Wrong-1-x')));
    expect(answers.filter((a) => a.status === 400)).toHaveLength(50);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(50);
    expect(await passwordChecks({ ip })).toBe(50);
  });

  it('lets the owner sign in from their own address while another address is locked out', async () => {
    const user = await buildUser(t);
    const attacker = uniqueIp();
    await failFrom(attacker, user, 5);
    expect((await signInFrom(attacker, user.email, user.password)).status).toBe(429);
    expect((await signInFrom(uniqueIp(), user.email, user.password)).status).toBe(200);
  });

  it('locks the e-mail address everywhere after 50 failures from many addresses in 15 minutes', async () => {
    const user = await buildUser(t);
    for (let i = 0; i < 10; i++) await failFrom(uniqueIp(), user, 5);
    const owner = await signInFrom(uniqueIp(), user.email, user.password);
    expect(owner.status).toBe(429);
    t.clock.advance(15 * MINUTE + 1);
    expect((await signInFrom(uniqueIp(), user.email, user.password)).status).toBe(200);
  });

  const lockEverywhere = async (user: TestUser, ownerIp: string) => {
    await failFrom(ownerIp, user, 5);
    for (let i = 0; i < 9; i++) await failFrom(uniqueIp(), user, 5);
    expect((await signInFrom(ownerIp, user.email, user.password)).status).toBe(429);
    expect((await signInFrom(uniqueIp(), user.email, user.password)).status).toBe(429);
  };

  it('always lets a texted sign-in link in, and clears the lock', async () => {
    const user = await buildUser(t);
    const ownerIp = uniqueIp();
    await lockEverywhere(user, ownerIp);
    const link = await issueOneTimeToken(t.app.ctx.db, t.clock.now(), user.id, 'sign_in_link');
    const viaLink = await apiClient(t, ownerIp).post('/api/auth/token', { grant_type: 'link', token: link });
    expect(viaLink.status).toBe(200);
    expect(viaLink.body.user.id).toBe(user.id);
    expect((await signInFrom(ownerIp, user.email, user.password)).status).toBe(200);
  });

  it('always lets a password-reset link in, and clears the lock', async () => {
    const user = await buildUser(t);
    const ownerIp = uniqueIp();
    await lockEverywhere(user, ownerIp);
    const token = await issueOneTimeToken(t.app.ctx.db, t.clock.now(), user.id, 'recovery');
    const reset = await apiClient(t, ownerIp).post('/api/auth/verify', { token_hash: token, type: 'recovery' });
    expect(reset.status).toBe(200);
    expect((await signInFrom(ownerIp, user.email, user.password)).status).toBe(200);
  });

  it('does not hand a lock on to an account created again with the same e-mail address', async () => {
    const user = await buildUser(t);
    const ip = uniqueIp();
    await lockEverywhere(user, ip);
    await deleteUser(t.app.ctx.db, user.id);
    const again = await buildUser(t, { email: user.email, password: 'Another-Pass-9' });
    expect((await signInFrom(ip, again.email, again.password)).status).toBe(200);
  });

  it('keeps successful sign-ins out of the count and clears the address’s failures', async () => {
    const user = await buildUser(t);
    const ip = uniqueIp();
    await failFrom(ip, user, 4);
    expect((await signInFrom(ip, user.email, user.password)).status).toBe(200);
    await failFrom(ip, user, 5);
    expect((await signInFrom(ip, user.email, user.password)).status).toBe(429);
  });

  describe('device cookies: a browser that signed in before is counted on its own', () => {
    const signInWith = (ip: string, cookie: string | undefined, email: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        remoteAddress: ip,
        headers: cookie ? { cookie } : {},
        payload: { grant_type: 'password', email, password },
      });
    /** The device cookie a successful sign-in sets, as the browser sends it back. */
    const deviceCookieOf = (res: { headers: Record<string, unknown> }) => {
      const header = String(res.headers['set-cookie'] ?? '');
      expect(header).toMatch(/^jotline_device=[^;]+; Path=\/api\/auth\/token; Max-Age=\d+; HttpOnly; SameSite=Strict/);
      return header.split(';')[0]!;
    };

    it('lets the owner sign in throughout a guessing run from 50 addresses, from home and from a new address', async () => {
      const user = await buildUser(t);
      const home = uniqueIp();
      const first = await signInWith(home, undefined, user.email, user.password);
      expect(first.statusCode).toBe(200);
      let cookie = deviceCookieOf(first);

      for (let address = 0; address < 50; address++) {
        const guesser = uniqueIp();
        for (let guess = 0; guess < 5; guess++) expect([400, 429]).toContain((await signInFrom(guesser, user.email, `Wrong-${guess}-x`)).status);
        if (address % 5 === 4) {
          const owner = await signInWith(address % 10 === 4 ? home : uniqueIp(), cookie, user.email, user.password);
          expect(owner.statusCode, `after ${address + 1} addresses`).toBe(200);
          cookie = deviceCookieOf(owner);
        }
      }
      // The guessing still got nowhere: the account's limit held for every unknown device.
      expect(await passwordChecks({ email: user.email })).toBe(50);
      expect((await signInFrom(uniqueIp(), user.email, user.password)).status).toBe(429);
      expect((await signInWith(home, undefined, user.email, user.password)).statusCode).toBe(429);
    });

    it('counts a known device’s own wrong passwords, 5 in 15 minutes, without touching other devices', async () => {
      const user = await buildUser(t);
      const ip = uniqueIp();
      const cookie = deviceCookieOf(await signInWith(ip, undefined, user.email, user.password));
      for (let i = 0; i < 5; i++) expect((await signInWith(ip, cookie, user.email, `Wrong-${i}-x`)).statusCode).toBe(400);
      const locked = await signInWith(ip, cookie, user.email, user.password);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ error: { code: 'RATE_LIMITED', message: messages.signIn.rateLimited } });
      expect((await signInWith(uniqueIp(), undefined, user.email, user.password)).statusCode).toBe(200);
      t.clock.advance(15 * MINUTE + 1);
      expect((await signInWith(ip, cookie, user.email, user.password)).statusCode).toBe(200);
    });

    it('treats another account’s cookie, or one with a forged signature, as an unknown device', async () => {
      const user = await buildUser(t);
      const other = await buildUser(t);
      const otherCookie = deviceCookieOf(await signInWith(uniqueIp(), undefined, other.email, other.password));
      const [, , signature] = otherCookie.split('=')[1]!.split('.');
      const forged = `jotline_device=${user.id}.made-up-nonce.${signature}`;
      for (let i = 0; i < 10; i++) await failFrom(uniqueIp(), user, 5);
      expect((await signInWith(uniqueIp(), otherCookie, user.email, user.password)).statusCode).toBe(429);
      expect((await signInWith(uniqueIp(), forged, user.email, user.password)).statusCode).toBe(429);
    });
  });
});
