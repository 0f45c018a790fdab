import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, serveOnSqlite, sleep } from './test/processes';



/** Resolves with the status of a plain GET, or the connection error's code. */
function probe(port: number, path: string): Promise<number | string> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    req.end();
  });
}

// The real `jotline serve` process, as an operator's supervisor runs it and stops it.
describe('jotline serve on SIGTERM', () => {
  let dataDir: string;
  let port: number;
  let server: ChildProcess;
  let output = '';
  const exited = () =>
    new Promise<number | null>((done) => (server.exitCode !== null ? done(server.exitCode) : server.once('exit', (code) => done(code))));

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'jotline-serve-'));
    port = await freePort();
    server = serveOnSqlite(dataDir, port, { env: { JOBS: 'on' }, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (chunk) => (output += chunk));
    server.stderr!.on('data', (chunk) => (output += chunk));
    for (let i = 0; i < 300 && (await probe(port, '/healthz')) !== 200; i++) await sleep(100);
    expect(await probe(port, '/healthz'), output).toBe(200);
  }, 60_000);
  afterAll(() => {
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = async (path: string, body: Record<string, unknown>, token?: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const text = (from: string, body: string, sid = 'SM' + randomBytes(16).toString('hex')) =>
    fetch(`http://127.0.0.1:${port}/webhooks/twilio/sms`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ MessageSid: sid, From: from, To: '+15555550100', Body: body, NumMedia: '0' }).toString(),
    });

  /** Signs up, verifies by texting YES (the simulator's unsigned webhook), and opens the realtime stream. */
  async function openEventStream() {
    const signUp = await post('/api/auth/signup', { email: 'drain@example.com', password: 'Journal123', phoneNumber: '5122340188', timezone: 'America/Chicago', smsConsent: true });
    expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
    expect((await text('+15122340188', 'YES')).status).toBe(200);
    let verified = await post('/api/auth/verify-phone', { verification_token: signUp.body.verification_token });
    for (let i = 0; i < 50 && !verified.body.verified; i++) {
      await sleep(100);
      verified = await post('/api/auth/verify-phone', { verification_token: signUp.body.verification_token });
    }
    const session = await post('/api/auth/token', { grant_type: 'link', token: new URL(verified.body.auth_link).searchParams.get('token') });
    expect(session.status).toBe(200);
    const ticket = await post('/api/events/ticket', {}, session.body.access_token);
    const res = await fetch(`http://127.0.0.1:${port}/api/events?ticket=${ticket.body.ticket}`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read(); // connected
    let ended = false;
    const done = (async () => {
      while (!(await reader.read()).done);
      ended = true;
    })().catch(() => (ended = true));
    return { ended: () => ended, done };
  }

  it('names PUBLIC_URL in its start log, not the address it listens on (sessions belong to one origin)', () => {
    expect(output).toContain(`Jotline is up at http://localhost:${port}`);
    expect(output).not.toContain(`http://127.0.0.1:${port}`);
  });

  it('stops accepting, ends event streams, finishes the request in flight, records its text for the next instance, then exits 0', async () => {
    const stream = await openEventStream();
    const sid = 'SM' + randomBytes(16).toString('hex');
    const fields = new URLSearchParams({ MessageSid: sid, From: '+15125550123', To: '+15555550100', Body: 'sent just before the restart', NumMedia: '0' }).toString();
    const half = Math.floor(fields.length / 2);
    let answer = '';
    const response = new Promise<number>((done, fail) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/webhooks/twilio/sms', agent: false, headers: { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' } },
        (res) => {
          res.on('data', (chunk) => (answer += chunk));
          res.on('end', () => done(res.statusCode ?? 0));
        },
      );
      req.on('error', fail);
      // A slow client: half the body now, the rest after the signal.
      req.write(fields.slice(0, half));
      setTimeout(() => server.kill('SIGTERM'), 300);
      setTimeout(() => req.end(fields.slice(half)), 1_500);
    });

    await sleep(1_000);
    expect(server.exitCode, output).toBeNull(); // still draining
    expect(stream.ended()).toBe(true); // the browser reconnects to another instance
    expect(['ECONNREFUSED', 503]).toContain(await probe(port, '/healthz')); // no new work taken

    expect(await response).toBe(200);
    expect(answer).toContain('<Response/>');
    expect(await exited(), output).toBe(0);
    expect(output).toContain('shutting down');

    // The text it acknowledged is recorded and left unclaimed: the next instance's inbound job takes it.
    const db = new SQLite(join(dataDir, 'serve.db'), { readonly: true });
    try {
      const inbound = db.prepare("select processed, claimed_at from sms_messages where provider_message_id = ?").all(sid);
      expect(inbound).toEqual([{ processed: 0, claimed_at: null }]);
      const claimed = db.prepare("select count(*) as n from sms_messages where direction = 'outbound' and status = 'sending'").get() as { n: number };
      expect(claimed.n).toBe(0);
    } finally {
      db.close();
    }
  }, 60_000);
});
