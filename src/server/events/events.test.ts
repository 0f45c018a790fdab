import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserEvent } from '../events';
import { createEntry, journalUser, type JournalTestUser } from '../test/journal';
import { apiClient, bearer, signIn, signInSession } from '../test/factories';
import { buildTestApp, type TestApp } from '../test/app';
import { REFRESH_REUSE_INTERVAL_MS } from '../auth/sessions';
import { REPLAY_WINDOW_MS } from './history';
import { HEARTBEAT_MS, pipeUserEvents } from './stream';

describe('pipeUserEvents', () => {
  it('writes events as SSE, a heartbeat every 25 s, and lets go of everything on close', () => {
    vi.useFakeTimers();
    try {
      const out = new PassThrough();
      let written = '';
      out.on('data', (chunk) => (written += chunk));
      let listener: ((event: UserEvent) => void) | undefined;
      const unsubscribe = vi.fn();
      pipeUserEvents(out, (l) => {
        listener = l;
        return unsubscribe;
      });
      expect(written).toBe('retry: 5000\n: connected\n\n');
      listener!({ type: 'entries.changed', entryId: 'e1' });
      listener!({ type: 'profile.updated', phone_verified: true });
      expect(written).toContain('event: entries.changed\ndata: {"type":"entries.changed","entryId":"e1"}\n\n');
      expect(written).toContain('event: profile.updated\ndata: {"type":"profile.updated","phone_verified":true}\n\n');
      written = '';
      vi.advanceTimersByTime(24_999);
      expect(written).toBe('');
      vi.advanceTimersByTime(1);
      expect(written).toBe(': heartbeat\n\n');
      out.destroy();
      out.emit('close');
      expect(unsubscribe).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('GET /api/events', () => {
  let t: TestApp;
  let base: string;
  let user: JournalTestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    t.clock.set(new Date('2026-11-23T17:00:00.000Z'));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    user = await journalUser(t);
  });
  afterAll(() => t.close());

  async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, needle: string): Promise<string> {
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes(needle)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return text;
  }

  /** Reads until the server ends the stream; true when it did within the time. */
  async function endsWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<boolean> {
    const timeout = new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms));
    for (;;) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === 'open') return false;
      if (next.done) return true;
    }
  }

  const ticketFor = async (token: string): Promise<string> => {
    const res = await t.app.inject({ method: 'POST', url: '/api/events/ticket', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    return JSON.parse(res.body).ticket as string;
  };

  /** Opens a stream with a fresh ticket and waits until it is connected. */
  const openStream = async (token: string) => {
    const abort = new AbortController();
    const res = await fetch(`${base}/api/events?ticket=${await ticketFor(token)}`, { signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect(await readUntil(reader, ': connected')).toContain(': connected');
    return { res, reader, abort };
  };

  it('refuses a missing or bad ticket or token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/events' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/events?ticket=nope' })).statusCode).toBe(401);
    const twoTickets = await t.app.inject({ method: 'GET', url: '/api/events?ticket=a&ticket=b' });
    expect(twoTickets.statusCode).toBe(400);
    expect(JSON.parse(twoTickets.body)).toMatchObject({ error: { code: 'INVALID_INPUT', message: 'Invalid input' } });
    expect((await t.app.inject({ method: 'GET', url: '/api/events', headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/events/ticket' })).statusCode).toBe(401);
  });

  it('no longer takes an access token from the address', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/events?access_token=${user.token}` });
    expect(res.statusCode).toBe(401);
  });

  it("streams the user's own events (opened with a ticket), and unsubscribes when the page goes", async () => {
    const events = t.app.ctx.events;
    const unsubscribed = vi.fn();
    const subscribe = events.subscribe;
    events.subscribe = (userId, listener) => {
      const stop = subscribe(userId, listener);
      return () => {
        unsubscribed(userId);
        stop();
      };
    };
    try {
      const other = await journalUser(t);
      const { res, reader, abort } = await openStream(user.token);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('private, no-store, no-transform');

      await createEntry(t, other, { content: 'not yours' });
      const entry = await createEntry(t, user, { content: 'yours' });
      const text = await readUntil(reader, 'entries.changed');
      expect(text).toMatch(new RegExp(`(^|\\n)id: [\\w-]+:\\d+\\nevent: entries.changed\\ndata: ${JSON.stringify({ type: 'entries.changed', entryId: entry.id })}\\n\\n$`));
      events.publish(user.id, { type: 'profile.updated', phone_verified: true });
      expect(await readUntil(reader, 'profile.updated')).toContain('"phone_verified":true');

      // Its events are kept for a reconnect a while after the page went (history.ts), then let go.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      abort.abort();
      await vi.waitFor(() => {
        vi.advanceTimersByTime(REPLAY_WINDOW_MS);
        expect(unsubscribed).toHaveBeenCalledWith(user.id);
      });
    } finally {
      vi.useRealTimers();
      events.subscribe = subscribe;
    }
  });

  it('takes the token from the Authorization header too', async () => {
    const abort = new AbortController();
    const res = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${user.token}` }, signal: abort.signal });
    expect(res.status).toBe(200);
    expect(await readUntil(res.body!.getReader(), ': connected')).toContain('retry: 5000');
    abort.abort();
  });

  it('refuses a ticket used once already', async () => {
    const ticket = await ticketFor(user.token);
    const abort = new AbortController();
    const first = await fetch(`${base}/api/events?ticket=${ticket}`, { signal: abort.signal });
    expect(first.status).toBe(200);
    const again = await t.app.inject({ method: 'GET', url: `/api/events?ticket=${ticket}` });
    expect(again.statusCode).toBe(401);
    abort.abort();
  });

  it('refuses a ticket after its minute is up', async () => {
    const ticket = await ticketFor(user.token);
    t.clock.advance(60_001);
    try {
      expect((await t.app.inject({ method: 'GET', url: `/api/events?ticket=${ticket}` })).statusCode).toBe(401);
    } finally {
      t.clock.advance(-60_001);
    }
  });

  it("refuses another user's ticket once that user signed out, and a token of a signed-out session", async () => {
    const someone = await journalUser(t);
    const ticket = await ticketFor(someone.token);
    await apiClient(t).post('/api/auth/logout', { scope: 'global' }, someone.token);
    expect((await t.app.inject({ method: 'GET', url: `/api/events?ticket=${ticket}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/events', headers: bearer(someone.token) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/events/ticket', headers: bearer(someone.token) })).statusCode).toBe(401);
  });

  it('ends every open stream of the user at a global sign-out', async () => {
    const person = await journalUser(t);
    const laptop = await signIn(t, person);
    const first = await openStream(person.token);
    const second = await openStream(laptop);
    const bystander = await openStream(user.token);
    expect((await apiClient(t).post('/api/auth/logout', { scope: 'global' }, person.token)).status).toBe(204);
    expect(await endsWithin(first.reader, 2_000)).toBe(true);
    expect(await endsWithin(second.reader, 2_000)).toBe(true);
    expect(await endsWithin(bystander.reader, 300)).toBe(false);
    bystander.abort.abort();
  });

  it('tells the page its session ended before ending the stream', async () => {
    const person = await journalUser(t);
    const laptop = await signIn(t, person);
    const there = await openStream(laptop);
    expect((await apiClient(t).post('/api/auth/logout', { scope: 'global' }, person.token)).status).toBe(204);
    expect(await readUntil(there.reader, 'event: signed-out')).toContain('event: signed-out');
    expect(await endsWithin(there.reader, 2_000)).toBe(true);
  });

  it("ends only that session's streams at a local sign-out", async () => {
    const person = await journalUser(t);
    const laptop = await signIn(t, person);
    const here = await openStream(person.token);
    const there = await openStream(laptop);
    expect((await apiClient(t).post('/api/auth/logout', { scope: 'local' }, person.token)).status).toBe(204);
    expect(await endsWithin(here.reader, 2_000)).toBe(true);
    expect(await endsWithin(there.reader, 300)).toBe(false);
    there.abort.abort();
  });

  it("ends other sessions' streams when the password changes", async () => {
    const person = await journalUser(t);
    const laptop = await signIn(t, person);
    const here = await openStream(person.token);
    const there = await openStream(laptop);
    expect((await apiClient(t).put('/api/auth/user', { password: 'A-new-pass-1' }, person.token)).status).toBe(200);
    expect(await endsWithin(there.reader, 2_000)).toBe(true);
    expect(await endsWithin(here.reader, 300)).toBe(false);
    here.abort.abort();
  });

  it('ends the streams of a session revoked for refresh-token reuse', async () => {
    const person = await journalUser(t);
    const session = await signInSession(t, person);
    const stream = await openStream(session.access_token);
    const api = apiClient(t);
    expect((await api.post('/api/auth/token', { grant_type: 'refresh_token', refresh_token: session.refresh_token })).status).toBe(200);
    t.clock.advance(REFRESH_REUSE_INTERVAL_MS);
    expect((await api.post('/api/auth/token', { grant_type: 'refresh_token', refresh_token: session.refresh_token })).status).toBe(401);
    expect(await endsWithin(stream.reader, 2_000)).toBe(true);
  });

  it('ends a stream within one heartbeat of a revocation it was not told about', async () => {
    const person = await journalUser(t);
    const session = await signInSession(t, person);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const stream = await openStream(session.access_token);
      // Revoked straight in the database, as another instance's reuse detection would, with no event.
      await t.app.ctx.db.updateTable('refresh_tokens').set({ revoked_at: t.clock.now().toISOString() }).where('user_id', '=', person.id).execute();
      expect(await endsWithin(stream.reader, 300)).toBe(false);
      vi.advanceTimersByTime(HEARTBEAT_MS);
      expect(await endsWithin(stream.reader, 2_000)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps at most 10 streams open per user, closing the oldest', async () => {
    const person = await journalUser(t);
    const streams = [];
    for (let i = 0; i < 11; i++) streams.push(await openStream(person.token));
    expect(await endsWithin(streams[0]!.reader, 2_000)).toBe(true);
    for (const stream of streams.slice(1)) expect(await endsWithin(stream.reader, 50)).toBe(false);
    for (const stream of streams) stream.abort.abort();
  });
});
