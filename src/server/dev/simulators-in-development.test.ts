import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { startFakeStripe, type FakeStripe } from '../test/billing';
import { manualClock } from '../clock';
import { loadConfig } from '../config';
import type { TestApp } from '../test/app';

const SIMULATOR_PAGES = ['/dev/phone', '/dev/mail', '/dev/checkout', '/dev/billing-portal'];
const SIMULATOR_APIS = ['/api/dev/mail', '/api/dev/phone/messages?phone=2025550123', '/api/dev/billing/sessions/cs_x'];
const SHELL = '<!doctype html><html><head><title>Jotline</title></head><body><div id="root"></div></body></html>';

/** The app serving a small built web app, with the environment given (on top of a test's own). */
async function appServingWeb(env: Record<string, string>): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'jotline-dev-'));
  const webRoot = join(dataDir, 'web');
  mkdirSync(join(webRoot, 'assets'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), SHELL);
  writeFileSync(join(webRoot, 'assets', 'app-1a2b.js'), 'export const app = 1;\n');
  writeFileSync(join(webRoot, 'assets', 'app-1a2b.js.map'), '{"version":3,"sources":["../../src/web/main.tsx"],"mappings":""}');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.TEST_DATABASE_URL ?? `sqlite:${join(dataDir, 'test.db')}`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'http://jotline.test',
    LOG_LEVEL: 'silent',
    JOBS: 'off',
    ...env,
  });
  const clock = manualClock(new Date('2026-11-25T12:00:00Z'));
  const app = await buildApp(config, { clock, serveWeb: true, webRoot });
  await app.ready();
  return { app, clock, dataDir, close: async () => (await app.close(), rmSync(dataDir, { recursive: true, force: true })) };
}

const get = (t: TestApp, url: string, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, remoteAddress, headers });

describe('simulators in development, on this machine', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appServingWeb({});
    await t.app.ctx.mail.send({ to: 'someone@example.com', subject: 'Reset your password', text: 'https://jotline.test/reset-password?token=secret' });
  });
  afterAll(() => t.close());

  it('serves the simulator pages and APIs to this machine', async () => {
    for (const path of SIMULATOR_PAGES) expect((await get(t, path)).statusCode, path).toBe(200);
    expect((await get(t, '/api/dev/mail')).json().messages[0].subject).toBe('Reset your password');
  });

  it('shows the mailbox to no other machine, however the request names itself', async () => {
    for (const [remote, headers] of [
      ['203.0.113.9', {}],
      ['192.168.1.20', {}],
      // A proxy on this machine forwarding someone else, or a client writing the header itself.
      ['127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }],
      ['127.0.0.1', { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' }],
      ['127.0.0.1', { forwarded: 'for=203.0.113.9;proto=https' }],
      ['127.0.0.1', { 'x-real-ip': '203.0.113.9' }],
    ] as const) {
      const api = await get(t, '/api/dev/mail', remote, headers);
      expect(api.statusCode, `${remote} ${JSON.stringify(headers)}`).toBe(404);
      expect(api.body).not.toContain('secret');
      expect((await get(t, '/dev/mail', remote, headers)).statusCode).toBe(404);
    }
    expect((await get(t, '/api/dev/mail', '::1')).statusCode).toBe(200);
    expect((await get(t, '/api/dev/mail', '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(200);
  });

  it('never serves the source maps of the built app', async () => {
    expect((await get(t, '/assets/app-1a2b.js')).statusCode).toBe(200);
    const map = await get(t, '/assets/app-1a2b.js.map');
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('src/web/main.tsx');
  });
});

describe('simulators beside real providers', () => {
  let stripe: FakeStripe;
  let t: TestApp;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await appServingWeb({
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC' + '0'.repeat(32),
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM: '+15555550100',
      TWILIO_API_URL: 'http://127.0.0.1:9',
      ...stripe.env,
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('has no phone or checkout simulator; the mail simulator still shows only to this machine', async () => {
    for (const path of ['/dev/phone', '/dev/checkout', '/dev/billing-portal']) expect((await get(t, path)).statusCode, path).toBe(404);
    for (const url of ['/api/dev/phone/messages?phone=2025550123', '/api/dev/billing/sessions/cs_x']) expect((await get(t, url)).statusCode, url).toBe(404);
    expect((await get(t, '/api/dev/mail', '203.0.113.9')).statusCode).toBe(404);
    expect((await get(t, '/api/dev/mail')).statusCode).toBe(200);
  });
});

describe('simulators in production', () => {
  let stripe: FakeStripe;
  let t: TestApp;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await appServingWeb({
      NODE_ENV: 'production',
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC' + '0'.repeat(32),
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM: '+15555550100',
      TWILIO_API_URL: 'http://127.0.0.1:9',
      SMTP_URL: 'smtp://127.0.0.1:9',
      ...stripe.env,
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('has no simulator page or API, even for this machine', async () => {
    for (const path of [...SIMULATOR_PAGES, ...SIMULATOR_APIS]) expect((await get(t, path)).statusCode, path).toBe(404);
  });
});
