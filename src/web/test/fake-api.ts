import { vi } from 'vitest';
import type { Session } from '../api/types';

/**
 * Test-only: a fake of the HTTP API at the fetch boundary. Routes are 'METHOD /path' (query
 * ignored); a handler answers with `reply(status, body)` or throws to simulate a network failure.
 */
interface FakeRequest {
  method: string;
  path: string;
  url: string;
  body: any;
  headers: Record<string, string>;
}

interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export const reply = (status: number, body?: unknown, headers?: Record<string, string>): FakeReply => ({ status, body, headers });
export const apiError = (status: number, code: string, message: string): FakeReply => reply(status, { error: { code, message } });
export const networkDown: Handler = () => {
  throw new TypeError('Failed to fetch');
};

export function installFakeApi() {
  const persistent = new Map<string, Handler>();
  const queued = new Map<string, Handler[]>();
  const requests: FakeRequest[] = [];

  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0]!;
    const request: FakeRequest = {
      method,
      path,
      url,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: { ...(init.headers as Record<string, string>) },
    };
    requests.push(request);
    const key = `${method} ${path}`;
    const handler = queued.get(key)?.shift() ?? persistent.get(key);
    const answer = handler ? await handler(request) : reply(404, { error: { code: 'NOT_FOUND', message: 'Not found' } });
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return { ok: answer.status >= 200 && answer.status < 300, status: answer.status, headers: new Headers(answer.headers), text: async () => text } as Response;
  });
  vi.stubGlobal('fetch', fetch);

  const asHandler = (answer: FakeReply | Handler): Handler => (typeof answer === 'function' ? answer : () => answer);
  return {
    fetch,
    /** Answers every request to this route. */
    on(route: string, answer: FakeReply | Handler) {
      persistent.set(route, asHandler(answer));
      return this;
    },
    /** Answers the next request to this route only (before any `on` answer). */
    once(route: string, answer: FakeReply | Handler) {
      queued.set(route, [...(queued.get(route) ?? []), asHandler(answer)]);
      return this;
    },
    requestsTo(route: string): FakeRequest[] {
      return requests.filter((r) => `${r.method} ${r.path}` === route);
    },
    requests,
  };
}

export type FakeApi = ReturnType<typeof installFakeApi>;

/** A session as POST /api/auth/token returns it, expiring `expiresInSeconds` from now. */
export function fakeSession(overrides: { access_token?: string; refresh_token?: string; expiresInSeconds?: number; email?: string } = {}): Session {
  const expiresIn = overrides.expiresInSeconds ?? 3600;
  return {
    access_token: overrides.access_token ?? 'access-1',
    token_type: 'bearer',
    expires_in: expiresIn,
    expires_at: Math.floor(Date.now() / 1000) + expiresIn,
    refresh_token: overrides.refresh_token ?? 'refresh-1',
    user: {
      id: 'user-1',
      email: overrides.email ?? 'ada@example.com',
      email_verified: true,
      phone: '+12025550123',
      phone_verified: true,
      sign_up_lapses_at: null,
      is_admin: false,
      created_at: '2026-01-01T00:00:00.000Z',
    },
  };
}
