import type { AddressInfo } from 'node:net';
import { EventSource, type EventSourceFetchInit } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserEvent } from '../events';
import { journalUser, type JournalTestUser } from '../test/journal';
import { buildTestApp, type TestApp } from '../test/app';

// A standard EventSource, as a page uses it: opened with a ticket, then left to reconnect by itself
// (same address, its used ticket, the cookies the browser holds, and Last-Event-ID).
describe('an EventSource that reconnects by itself', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  /** Takes a ticket as the page does, keeping the cookie it sets as a browser would. */
  async function ticketFor(user: JournalTestUser): Promise<{ ticket: string; cookie: string }> {
    const res = await fetch(`${base}/api/events/ticket`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` } });
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^jotline_stream=[^;]+; Path=\/api\/events; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    return { ticket: ((await res.json()) as { ticket: string }).ticket, cookie: setCookie.split(';')[0]! };
  }

  /** An EventSource whose requests carry the cookie (a browser's cookie jar) and are recorded. */
  function openSource(url: string, cookie: string | null, requests: Array<{ lastEventId: string | null; status?: number }>) {
    const received: UserEvent[] = [];
    const source = new EventSource(url, {
      fetch: async (input: string | URL, init?: EventSourceFetchInit) => {
        const headers = new Headers(init?.headers as Record<string, string>);
        if (cookie) headers.set('cookie', cookie);
        const request: { lastEventId: string | null; status?: number } = { lastEventId: headers.get('last-event-id') };
        requests.push(request);
        const res = await fetch(input, { ...init, headers });
        request.status = res.status;
        return res;
      },
    });
    for (const type of ['entries.changed', 'profile.updated'] as const) {
      source.addEventListener(type, (message) => received.push(JSON.parse(message.data) as UserEvent));
    }
    return { source, received };
  }

  const opened = (source: EventSource) => new Promise<void>((resolve) => source.addEventListener('open', () => resolve(), { once: true }));

  it('gets back in with its used ticket and misses no event published while it was away', async () => {
    const user = await journalUser(t);
    const { ticket, cookie } = await ticketFor(user);
    const requests: Array<{ lastEventId: string | null; status?: number }> = [];
    const { source, received } = openSource(`${base}/api/events?ticket=${ticket}`, cookie, requests);
    try {
      await opened(source);
      await vi.waitFor(() => expect(requests).toHaveLength(1));
      t.app.ctx.events.publish(user.id, { type: 'entries.changed', entryId: 'before' });
      await vi.waitFor(() => expect(received).toHaveLength(1));

      // The server drops every connection (a proxy restarting, a deploy), then events go on.
      const reopened = opened(source);
      t.app.server.closeAllConnections();
      await vi.waitFor(() => expect(source.readyState).toBe(EventSource.CONNECTING));
      t.app.ctx.events.publish(user.id, { type: 'entries.changed', entryId: 'while-away-1' });
      t.app.ctx.events.publish(user.id, { type: 'profile.updated', phone_verified: true });
      t.app.ctx.events.publish(user.id, { type: 'entries.changed', entryId: 'while-away-2' });

      await reopened; // after the 5 s the stream's retry: asks for
      await vi.waitFor(() => expect(received).toHaveLength(4), { timeout: 5_000 });
      t.app.ctx.events.publish(user.id, { type: 'entries.changed', entryId: 'after' });
      await vi.waitFor(() => expect(received).toHaveLength(5));

      expect(received).toEqual([
        { type: 'entries.changed', entryId: 'before' },
        { type: 'entries.changed', entryId: 'while-away-1' },
        { type: 'profile.updated', phone_verified: true },
        { type: 'entries.changed', entryId: 'while-away-2' },
        { type: 'entries.changed', entryId: 'after' },
      ]);
      // The reconnect sent the spent ticket and said where it was.
      expect(requests).toHaveLength(2);
      expect(requests[0]).toMatchObject({ lastEventId: null, status: 200 });
      expect(requests[1]!.lastEventId).toMatch(/^[\w-]+:\d+$/);
      expect(requests[1]!.status).toBe(200);
    } finally {
      source.close();
    }
  }, 30_000);

  it('is told everything changed when it comes back with an id this instance cannot answer', async () => {
    const user = await journalUser(t);
    const { ticket, cookie } = await ticketFor(user);
    const abort = new AbortController();
    const res = await fetch(`${base}/api/events?ticket=${ticket}`, { headers: { cookie, 'last-event-id': 'another-instance:42' }, signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: connected')) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    expect(text).toContain('event: entries.changed\ndata: {"type":"entries.changed"}');
    expect(text).toContain('event: profile.updated\ndata: {"type":"profile.updated"}');
  });

  it('cannot get back in without the stream cookie, nor with one once its session is signed out', async () => {
    const user = await journalUser(t);
    const { ticket, cookie } = await ticketFor(user);
    const spent = await fetch(`${base}/api/events?ticket=${ticket}`);
    expect(spent.status).toBe(200);
    await spent.body!.cancel();
    expect((await fetch(`${base}/api/events?ticket=${ticket}`)).status).toBe(401);
    expect((await fetch(`${base}/api/events?ticket=${ticket}`, { headers: { cookie: `${cookie.slice(0, -3)}abc` } })).status).toBe(401);
    expect((await fetch(`${base}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: '{}' })).status).toBe(204);
    expect((await fetch(`${base}/api/events?ticket=${ticket}`, { headers: { cookie } })).status).toBe(401);
  });
});
