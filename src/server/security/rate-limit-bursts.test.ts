import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_FAILURES_PER_WINDOW, SIGN_UPS_PER_WINDOW } from '../../shared/limits';
import { AUTH_LIMITS } from '../auth/limits';
import { fixture, postImport } from '../test/import';
import { IMPORTS_PER_WINDOW } from '../import/service';
import { journalUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';
import { buildUser, signUpBody, uniqueEmail, uniqueIp, uniquePhone } from '../test/factories';

/**
 * Every rate limit under a parallel burst: exactly the limit gets through, whatever the interleaving
 * (the counts are taken atomically, see reserveHits). Exports and texted sign-in links have their own
 * burst tests beside them (export-limits.test.ts, sign-in-by-text.test.ts).
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  t.clock.set(new Date('2026-11-20T15:00:00Z'));
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: Record<string, unknown>, ip = uniqueIp()) => t.app.inject({ method: 'POST', url, payload, remoteAddress: ip });
const through = (answers: Array<{ statusCode: number }>) => answers.filter((res) => res.statusCode !== 429).length;
const refused = (answers: Array<{ statusCode: number }>) => answers.filter((res) => res.statusCode === 429).length;

describe('parallel bursts get exactly the limit', () => {
  it('sign-ups for one e-mail address', async () => {
    const email = uniqueEmail('burst');
    const answers = await Promise.all(Array.from({ length: 12 }, () => post('/api/auth/signup', signUpBody({ email, phoneNumber: uniquePhone().slice(2) }))));
    expect(answers.every((res) => res.statusCode < 500)).toBe(true);
    expect(through(answers)).toBe(SIGN_UPS_PER_WINDOW);
    expect(refused(answers)).toBe(12 - SIGN_UPS_PER_WINDOW);
  });

  it('sign-ups for one phone number', async () => {
    const phone = uniquePhone().slice(2);
    const answers = await Promise.all(Array.from({ length: 12 }, () => post('/api/auth/signup', signUpBody({ phoneNumber: phone }))));
    expect(answers.every((res) => res.statusCode < 500)).toBe(true);
    expect(through(answers)).toBe(SIGN_UPS_PER_WINDOW);
  });

  it('sign-ups from one address', async () => {
    const ip = uniqueIp();
    const { limit } = AUTH_LIMITS.signUpsPerIp;
    const answers = await Promise.all(Array.from({ length: limit + 10 }, () => post('/api/auth/signup', signUpBody(), ip)));
    expect(answers.every((res) => res.statusCode < 500)).toBe(true);
    expect(through(answers)).toBe(limit);
  });

  it('wrong passwords for one account: exactly the allowed failures are checked, the rest refused', async () => {
    const user = await buildUser(t);
    const ip = uniqueIp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post('/api/auth/token', { grant_type: 'password', email: user.email, password: `Wrong-${i}-x` }, ip)),
    );
    expect(answers.filter((res) => res.statusCode === 400 || res.statusCode === 401)).toHaveLength(SIGN_IN_FAILURES_PER_WINDOW);
    expect(refused(answers)).toBe(20 - SIGN_IN_FAILURES_PER_WINDOW);
    // And now even the right password waits for the window to pass.
    const right = await post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password }, ip);
    expect(right.statusCode).toBe(429);
  });

  it('password resets for one e-mail address: exactly the limit of e-mails go out', async () => {
    const user = await buildUser(t);
    const outbox = t.app.ctx.simulators.mail!.outbox;
    const before = outbox.filter((mail) => mail.to === user.email).length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/api/auth/recover', { email: user.email })));
    // The answer never says whether the address has an account, or whether its limit was reached.
    expect(answers.every((res) => res.statusCode === 200)).toBe(true);
    expect(outbox.filter((mail) => mail.to === user.email).length - before).toBe(AUTH_LIMITS.recoveriesPerEmail.limit);
  });

  it('password resets from one address', async () => {
    const ip = uniqueIp();
    const { limit } = AUTH_LIMITS.recoveriesPerIp;
    const answers = await Promise.all(Array.from({ length: limit + 8 }, () => post('/api/auth/recover', { email: uniqueEmail('reset') }, ip)));
    expect(through(answers)).toBe(limit);
  });

  it('journal imports for one user', async () => {
    const user = await journalUser(t);
    const file = fixture('dayone-journal.json');
    const answers = await Promise.all(Array.from({ length: IMPORTS_PER_WINDOW + 5 }, () => postImport(t, user.headers, file)));
    expect(answers.every((res) => res.statusCode < 500)).toBe(true);
    expect(through(answers)).toBe(IMPORTS_PER_WINDOW);
  });
});
