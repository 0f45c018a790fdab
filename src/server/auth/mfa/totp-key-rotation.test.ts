import { randomBytes } from 'node:crypto';
import { generateSync } from 'otplib';
import { afterAll, expect, it } from 'vitest';
import { masterKeyId } from '../../crypto/encryption';
import { rotateMasterKey } from '../../keys/rotate';
import { buildSmsTestApp, type SmsTestApp } from '../../test/sms';
import { apiClient, buildUser, signIn } from '../../test/factories';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');
const NOON = new Date('2026-03-10T12:00:10Z');
const started: SmsTestApp[] = [];
afterAll(async () => {
  for (const t of started.reverse()) await t.close();
});

it('re-encrypts TOTP secrets when the master key rotates, so codes work once the old key is gone', async () => {
  const a = await buildSmsTestApp({ env: { MASTER_KEY: keyA } });
  started.push(a);
  a.clock.set(NOON);
  const user = await buildUser(a);
  const token = await signIn(a, user);
  const setup = await apiClient(a).post('/api/auth/totp', {}, token);
  const codeAt = (at: Date) => generateSync({ secret: setup.body.secret, epoch: Math.floor(at.getTime() / 1000) });
  expect((await apiClient(a).post('/api/auth/totp/confirm', { code: codeAt(NOON) }, token)).status).toBe(200);

  const rotating = await buildSmsTestApp({ sameDatabaseAs: a, env: { MASTER_KEY: keyB, MASTER_KEY_PREVIOUS: keyA } });
  started.push(rotating);
  rotating.clock.set(NOON);
  await rotateMasterKey(rotating.ctx);
  const row = await rotating.ctx.db.selectFrom('totp_factors').select('secret').where('user_id', '=', user.id).executeTakeFirstOrThrow();
  expect(rotating.ctx.cipher.keyIdOf(row.secret)).toBe(masterKeyId(Buffer.from(keyB, 'base64')));

  const after = await buildSmsTestApp({ sameDatabaseAs: a, env: { MASTER_KEY: keyB } });
  started.push(after);
  const later = new Date(NOON.getTime() + 60_000);
  after.clock.set(later);
  const first = await apiClient(after).post('/api/auth/token', { grant_type: 'password', email: user.email, password: user.password });
  expect(first.body.mfa_required).toBe(true);
  const done = await apiClient(after).post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.body.mfa_token, code: codeAt(later) });
  expect(done.status).toBe(200);
});
