import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserEvent } from '../events';
import { createEntry, journalUser, type JournalTestUser } from '../journal/test-helpers';
import { buildTestApp, type TestApp } from '../test/app';
import { pipeUserEvents } from './stream';

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

  it('refuses a missing or bad token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/events' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/events?access_token=nope' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/events', headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
  });

  it("streams the user's own events (token in the query), and unsubscribes when the page goes", async () => {
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
      const abort = new AbortController();
      const res = await fetch(`${base}/api/events?access_token=${user.token}`, { signal: abort.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
      const reader = res.body!.getReader();
      expect(await readUntil(reader, ': connected')).toContain(': connected');

      await createEntry(t, other, { content: 'not yours' });
      const entry = await createEntry(t, user, { content: 'yours' });
      const text = await readUntil(reader, 'entries.changed');
      expect(text).toBe(`event: entries.changed\ndata: ${JSON.stringify({ type: 'entries.changed', entryId: entry.id })}\n\n`);
      events.publish(user.id, { type: 'profile.updated', phone_verified: true });
      expect(await readUntil(reader, 'profile.updated')).toContain('"phone_verified":true');

      abort.abort();
      await vi.waitFor(() => expect(unsubscribed).toHaveBeenCalledWith(user.id));
    } finally {
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
});
