import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages } from '../../shared/messages';
import { apiClient, signUpBody } from '../test/factories';
import { VERIFICATION_STREAM_LIMITS } from './verification-events';
import { buildTestApp, type TestApp } from '../test/app';

describe('phone verification', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** Signs up and returns the verification token and the new user's id. */
  async function signUp() {
    const body = signUpBody();
    const res = await apiClient(t).post('/api/auth/signup', body);
    const user = await t.app.ctx.db.selectFrom('users').select('id').where('email', '=', body.email).executeTakeFirstOrThrow();
    return { token: res.body.verification_token as string, userId: user.id, body };
  }

  /** What the SMS slice does when the person texts YES. */
  async function textYes(userId: string) {
    await t.app.ctx.db.updateTable('profiles').set({ phone_verified: 1 }).where('id', '=', userId).execute();
    t.app.ctx.events.publish(userId, { type: 'profile.updated', phone_verified: true });
  }

  const linkToken = (authLink: string) => new URL(authLink).searchParams.get('token')!;

  it('answers verified:false until the phone is verified', async () => {
    const { token } = await signUp();
    const res = await apiClient(t).post('/api/auth/verify-phone', { verification_token: token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ verified: false });
  });

  it('answers with a sign-in link once the person has texted YES', async () => {
    const { token, userId } = await signUp();
    await textYes(userId);
    const res = await apiClient(t).post('/api/auth/verify-phone', { verification_token: token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ verified: true, auth_link: expect.stringMatching(/^http:\/\/jotline\.test\/auth\/callback\?token=[\w-]+$/) });
  });

  it('signs the person in with the link, once', async () => {
    const { token, userId, body } = await signUp();
    await textYes(userId);
    const verified = await apiClient(t).post('/api/auth/verify-phone', { verification_token: token });
    const link = linkToken(verified.body.auth_link);

    const session = await apiClient(t).post('/api/auth/token', { grant_type: 'link', token: link });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ id: userId, email: body.email, phone_verified: true });
    expect(session.body.refresh_token).toEqual(expect.any(String));

    const again = await apiClient(t).post('/api/auth/token', { grant_type: 'link', token: link });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: { code: 'INVALID_TOKEN', message: messages.auth.invalidLink } });
  });

  it('refuses a sign-in link older than 10 minutes', async () => {
    const { token, userId } = await signUp();
    await textYes(userId);
    const verified = await apiClient(t).post('/api/auth/verify-phone', { verification_token: token });
    t.clock.advance(10 * 60_000 + 1);
    const res = await apiClient(t).post('/api/auth/token', { grant_type: 'link', token: linkToken(verified.body.auth_link) });
    expect(res.status).toBe(400);
  });

  it('uses up the verification token when it hands out the link', async () => {
    const { token, userId } = await signUp();
    await textYes(userId);
    await apiClient(t).post('/api/auth/verify-phone', { verification_token: token });
    const again = await apiClient(t).post('/api/auth/verify-phone', { verification_token: token });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(messages.verification.invalidToken);
  });

  it('refuses an unknown, missing or expired verification token', async () => {
    const unknown = await apiClient(t).post('/api/auth/verify-phone', { verification_token: 'not-a-token' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(messages.verification.invalidToken);

    const missing = await apiClient(t).post('/api/auth/verify-phone', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(messages.verification.invalidToken);

    const { token } = await signUp();
    t.clock.advance(30 * 60_000 + 1);
    const expired = await apiClient(t).post('/api/auth/verify-phone', { verification_token: token });
    expect(expired.status).toBe(400);
    expect(expired.body.error.message).toBe(messages.verification.invalidToken);
  });

  describe('GET /api/auth/verification-events', () => {
    it('refuses a bad token with a JSON 400', async () => {
      const res = await apiClient(t).get('/api/auth/verification-events?verification_token=nope');
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(messages.verification.invalidToken);
    });

    it('sends USER_VERIFIED at once when the phone is already verified', async () => {
      const { token, userId } = await signUp();
      await textYes(userId);
      const res = await t.app.inject({ method: 'GET', url: `/api/auth/verification-events?verification_token=${token}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.body).toContain('event: USER_VERIFIED\n');
    });

    /** Opens the event stream over a real socket, as a browser would. */
    async function openEventStream(token: string) {
      const address = t.app.server.listening ? `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` : await t.app.listen({ port: 0, host: '127.0.0.1' });
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        get(`${address}/api/auth/verification-events?verification_token=${token}`, { agent: false }, resolve).on('error', reject);
      });
      response.setEncoding('utf8');
      let received = '';
      response.on('data', (chunk: string) => (received += chunk));
      const ended = new Promise<void>((resolve) => response.on('end', resolve).on('close', resolve));
      return {
        status: response.statusCode,
        received: () => received,
        until: async (text: string) => {
          for (let i = 0; i < 200 && !received.includes(text); i++) await new Promise((resolve) => setTimeout(resolve, 10));
          return received;
        },
        ended,
        close: () => response.destroy(),
      };
    }

    /** True once a stream opens for the token (a closed one is let go when the server sees it close). */
    async function opensOnceFreed(token: string): Promise<boolean> {
      for (let i = 0; i < 100; i++) {
        const stream = await openEventStream(token);
        stream.close();
        if (stream.status === 200) return true;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return false;
    }

    it('sends USER_VERIFIED when the person texts YES while the page listens', async () => {
      const { token, userId } = await signUp();
      const stream = await openEventStream(token);
      expect(stream.status).toBe(200);
      expect(await stream.until(': connected')).not.toContain('USER_VERIFIED');

      await textYes(userId);
      await stream.ended;
      expect(stream.received()).toContain('event: USER_VERIFIED\n');
    });

    it('keeps a quiet connection open with a heartbeat every 25 seconds', async () => {
      const { token } = await signUp();
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      try {
        const stream = await openEventStream(token);
        await stream.until(': connected');
        expect(stream.received()).not.toContain(': heartbeat');
        vi.advanceTimersByTime(25_000);
        expect(await stream.until(': heartbeat')).toContain(': heartbeat\n\n');
        stream.close();
      } finally {
        vi.useRealTimers();
      }
    });

    it('opens at most 3 streams per verification token (429 beyond), and another once one closes', async () => {
      const { token } = await signUp();
      const streams = [await openEventStream(token), await openEventStream(token), await openEventStream(token)];
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
      const fourth = await openEventStream(token);
      expect(fourth.status).toBe(429);
      streams[0]!.close();
      expect(await opensOnceFreed(token)).toBe(true);
      for (const stream of streams) stream.close();
    });

    it('caps the streams one client address holds open without signing in', async () => {
      const streams = [];
      for (let i = 0; i < VERIFICATION_STREAM_LIMITS.perClientAddress / 2; i++) {
        const { token } = await signUp();
        streams.push(await openEventStream(token), await openEventStream(token));
      }
      expect(streams.every((s) => s.status === 200)).toBe(true);
      const { token } = await signUp();
      const refused = await openEventStream(token);
      expect(refused.status).toBe(429);
      for (const stream of streams) stream.close();
      expect(await opensOnceFreed(token)).toBe(true);
    });

    it('stops listening when the page goes away', async () => {
      const { token } = await signUp();
      const events = t.app.ctx.events;
      const subscribe = events.subscribe;
      let stopped = 0;
      events.subscribe = (userId, listener) => {
        const unsubscribe = subscribe(userId, listener);
        return () => {
          stopped++;
          unsubscribe();
        };
      };
      try {
        const stream = await openEventStream(token);
        await stream.until(': connected');
        stream.close();
        for (let i = 0; i < 200 && stopped === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
        expect(stopped).toBe(1);
      } finally {
        events.subscribe = subscribe;
      }
    });
  });
});
