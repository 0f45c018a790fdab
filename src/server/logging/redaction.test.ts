import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { manualClock } from '../clock';
import { loadConfig } from '../config';
import { inboundProcessingSettled } from '../sms/inbound-job';
import { newMessageSid } from '../test/sms';
import { signUpBody } from '../test/factories';
import { scrubLogLine } from './scrub';

describe('scrubLogLine', () => {
  it('takes phone numbers, e-mail addresses, tokens and query strings out of a line and keeps it JSON', () => {
    const line = JSON.stringify({
      msg: 'Route GET:/api/events?access_token=abc.def&ticket=t1 not found',
      from: '+15551234567',
      encoded: 'From=%2B15551234567&Email=ann%40example.com',
      formatted: 'call (555) 123-4567 or 555.123.4567',
      who: 'Ann <ann.lee+journal@example.co.uk>',
      jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl',
      kept: { id: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6', time: 1763918123456, date: '2026-11-23T17:35:00.000Z' },
    });
    const scrubbed = scrubLogLine(line);
    const parsed = JSON.parse(scrubbed);
    expect(parsed.msg).toBe('Route GET:/api/events not found');
    expect(parsed.from).toBe('[phone]');
    expect(parsed.encoded).toBe('From=[phone]&Email=[email]');
    expect(parsed.formatted).toBe('call [phone] or [phone]');
    expect(parsed.who).toBe('Ann <[email]>');
    expect(parsed.jwt).toBe('[token]');
    expect(parsed.kept).toEqual({ id: 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6', time: 1763918123456, date: '2026-11-23T17:35:00.000Z' });
  });
});

describe('what reaches the logs', () => {
  let app: FastifyInstance;
  let dataDir: string;
  const lines: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'jotline-logs-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${join(dataDir, 'logs.db')}`,
      MASTER_KEY: randomBytes(32).toString('base64'),
      PUBLIC_URL: 'http://jotline.test',
      // Everything the app can say, at every level.
      LOG_LEVEL: 'trace',
      JOBS: 'off',
    });
    const clock = manualClock(new Date('2026-05-04T14:00:00Z'));
    app = await buildApp(config, { clock, serveWeb: false, logDestination: { write: (line: string) => void lines.push(line) } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const json = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    app.inject({ method, url, payload, headers: { 'x-forwarded-for': '203.0.113.9', ...headers } });
  const text = async (from: string, body: string) => {
    const params = { MessageSid: newMessageSid(), From: from, To: '+15555550100', Body: body, NumMedia: '0' };
    const res = await app.inject({
      method: 'POST',
      url: '/webhooks/twilio/sms',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(params).toString(),
    });
    expect(res.statusCode).toBe(200);
    await inboundProcessingSettled(app.ctx);
  };

  it('holds no message body, phone number, e-mail, password, token or query string, through a whole journey', async () => {
    const account = signUpBody({ password: 'Correct-Horse-42' });
    const phone = `+1${account.phoneNumber}`;
    const secrets: string[] = [account.email, account.email.split('@')[0]!, account.password, phone, account.phoneNumber, encodeURIComponent(phone)];

    const signUp = await json('POST', '/api/auth/signup', account);
    expect(signUp.statusCode).toBe(200);
    secrets.push(signUp.json().verification_token);

    await text(phone, 'YES');
    const verified = await json('POST', '/api/auth/verify-phone', { verification_token: signUp.json().verification_token });
    expect(verified.json().verified).toBe(true);
    const linkToken = new URL(verified.json().auth_link).searchParams.get('token')!;
    secrets.push(linkToken);
    expect((await json('POST', '/api/auth/token', { grant_type: 'link', token: linkToken })).statusCode).toBe(200);

    const signIn = await json('POST', '/api/auth/token', { grant_type: 'password', email: account.email, password: account.password });
    expect(signIn.statusCode).toBe(200);
    const { access_token, refresh_token } = signIn.json();
    secrets.push(access_token, refresh_token);
    expect((await json('POST', '/api/auth/token', { grant_type: 'password', email: account.email, password: 'Wrong-Password-1' })).statusCode).toBe(400);

    const refreshed = await json('POST', '/api/auth/token', { grant_type: 'refresh_token', refresh_token });
    expect(refreshed.statusCode).toBe(200);
    secrets.push(refreshed.json().access_token, refreshed.json().refresh_token);

    const diary = 'Told Margot about the lighthouse keeper in Brest';
    await text(phone, diary);
    secrets.push(diary, 'lighthouse');
    const entries = await json('GET', '/api/entries', undefined, { authorization: `Bearer ${refreshed.json().access_token}` });
    expect(entries.json().entries[0].content).toBe(diary);

    const ticket = 'tkt_' + randomBytes(12).toString('hex');
    secrets.push(ticket);
    await json('GET', `/api/entries?access_token=${access_token}`);
    await json('GET', `/api/events?ticket=${ticket}`);
    await json('GET', `/api/no-such-route?access_token=${access_token}&email=${encodeURIComponent(account.email)}`);
    await json('POST', '/api/auth/token', { grant_type: 'refresh_token', refresh_token }); // reuse: the family is revoked

    await app.inject({ method: 'GET', url: '/healthz' });
    // The log is not empty: every request was logged, by route path and status.
    const parsed = lines.map((line) => JSON.parse(line) as { req?: { url?: string }; res?: { statusCode?: number } });
    expect(parsed.some((l) => l.req?.url === '/api/auth/token')).toBe(true);
    expect(parsed.some((l) => l.req?.url === '/webhooks/twilio/sms')).toBe(true);
    expect(parsed.some((l) => l.req?.url === '/api/events')).toBe(true);
    expect(parsed.some((l) => l.res?.statusCode === 401)).toBe(true);

    for (const line of lines) {
      for (const secret of secrets) expect(line, `a log line holds "${secret}"`).not.toContain(secret);
      expect(line).not.toMatch(/[?&](access_token|ticket|email)=/);
      expect(line).not.toMatch(/\+1\d{10}/);
      expect(line).not.toMatch(/@example\.com/);
    }
  });
});
