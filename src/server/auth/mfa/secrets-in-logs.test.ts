import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { manualClock } from '../../clock';
import { loadConfig } from '../../config';
import { SoftwareAuthenticator } from '../../test/passkey-authenticator';
import { signUpBody } from '../../test/factories';
import { createAccount } from '../sign-up';
import { hashPassword } from '../passwords';

let app: FastifyInstance;
let dataDir: string;
const lines: string[] = [];
const clock = manualClock(new Date('2026-05-04T14:00:10Z'));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'jotline-mfa-logs-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${join(dataDir, 'logs.db')}`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'http://jotline.test',
    LOG_LEVEL: 'trace',
    JOBS: 'off',
  });
  app = await buildApp(config, { clock, serveWeb: false, logDestination: { write: (line: string) => void lines.push(line) } });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = async (url: string, payload: object, token?: string) => {
  const res = await app.inject({ method: 'POST', url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return res.json();
};

it('holds no TOTP secret, recovery code, mfa_token or passkey material', async () => {
  const body = signUpBody();
  const phone = `+1${body.phoneNumber}`;
  await createAccount(app.ctx.db, app.ctx.clock, { email: body.email, phone, passwordHash: await hashPassword(body.password), timezone: 'UTC', phoneVerified: true });
  const session = await post('/api/auth/token', { grant_type: 'password', email: body.email, password: body.password });
  const token = session.access_token as string;
  const setup = await post('/api/auth/totp', {}, token);
  const code = generateSync({ secret: setup.secret, epoch: Math.floor(clock.now().getTime() / 1000) });
  const { recovery_codes } = await post('/api/auth/totp/confirm', { code }, token);

  const authenticator = new SoftwareAuthenticator({ origin: 'http://jotline.test' });
  const registration = authenticator.create(await post('/api/auth/passkeys/options', {}, token));
  await post('/api/auth/passkeys', { name: 'Laptop', response: registration }, token);
  const assertion = authenticator.get(await post('/api/auth/passkey-options', {}));
  expect((await post('/api/auth/token', { grant_type: 'passkey', response: assertion })).access_token).toEqual(expect.any(String));

  const first = await post('/api/auth/token', { grant_type: 'password', email: body.email, password: body.password });
  await post('/api/auth/token', { grant_type: 'mfa', mfa_token: first.mfa_token, recovery_code: recovery_codes[0] });

  const secrets = [
    setup.secret,
    encodeURIComponent(setup.otpauth_url),
    ...recovery_codes,
    first.mfa_token,
    registration.response.attestationObject,
    registration.response.clientDataJSON,
    assertion.response.signature,
    assertion.response.authenticatorData,
  ];
  expect(lines.some((line) => line.includes('/api/auth/totp/confirm'))).toBe(true);
  for (const line of lines) for (const secret of secrets) expect(line, 'a log line holds a secret').not.toContain(secret);
});
