import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, refreshIfExpiring } from './client';
import { ApiError, NetworkError } from './errors';
import { apiError, fakeSession, installFakeApi, networkDown, reply, type FakeApi } from '../test/fake-api';
import { setProofPrompt } from './proof';
import { sessionStore } from './session-store';

let api: FakeApi;
beforeEach(() => {
  api = installFakeApi();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends JSON with the session bearer token and returns the parsed answer', async () => {
    sessionStore.set(fakeSession({ access_token: 'token-a' }));
    api.on('POST /api/things', (request) => reply(200, { echoed: request.body }));

    await expect(apiRequest('POST', '/api/things', { body: { a: 1 } })).resolves.toEqual({ echoed: { a: 1 } });
    const [sent] = api.requestsTo('POST /api/things');
    expect(sent!.headers.Authorization).toBe('Bearer token-a');
    expect(sent!.headers['Content-Type']).toBe('application/json');
  });

  it('turns an {error} answer into an ApiError with status, code and message', async () => {
    api.on('GET /api/things', apiError(409, 'CONFLICT', 'User already registered'));
    const error = await apiRequest('GET', '/api/things').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'CONFLICT', message: 'User already registered' });
  });

  it('keeps the answer’s headers on the ApiError, so a caller can wait out a Retry-After', async () => {
    api.on('GET /api/things', reply(429, { error: { code: 'RATE_LIMITED', message: 'Too many requests' } }, { 'Retry-After': '30' }));
    const error = await apiRequest('GET', '/api/things').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((error as ApiError).headers.get('retry-after')).toBe('30');
  });

  it('turns a failed fetch into a NetworkError', async () => {
    api.on('GET /api/things', networkDown);
    await expect(apiRequest('GET', '/api/things')).rejects.toBeInstanceOf(NetworkError);
  });

  it('on a 401 refreshes the session once and retries with the new token', async () => {
    sessionStore.set(fakeSession({ access_token: 'old', refresh_token: 'refresh-old' }));
    api.on('GET /api/things', (request) =>
      request.headers.Authorization === 'Bearer new' ? reply(200, { ok: true }) : apiError(401, 'UNAUTHORIZED', 'expired'),
    );
    api.on('POST /api/auth/token', reply(200, fakeSession({ access_token: 'new', refresh_token: 'refresh-new' })));

    await expect(apiRequest('GET', '/api/things')).resolves.toEqual({ ok: true });
    expect(api.requestsTo('POST /api/auth/token').map((r) => r.body)).toEqual([
      { grant_type: 'refresh_token', refresh_token: 'refresh-old' },
    ]);
    expect(sessionStore.get()?.refresh_token).toBe('refresh-new');
  });

  it('shares one refresh between requests that fail together (refresh tokens rotate)', async () => {
    sessionStore.set(fakeSession({ access_token: 'old' }));
    api.on('GET /api/things', (request) =>
      request.headers.Authorization === 'Bearer new' ? reply(200, { ok: true }) : apiError(401, 'UNAUTHORIZED', 'expired'),
    );
    api.on('POST /api/auth/token', reply(200, fakeSession({ access_token: 'new' })));

    await Promise.all([apiRequest('GET', '/api/things'), apiRequest('GET', '/api/things'), apiRequest('GET', '/api/things')]);
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(1);
  });

  it('clears the session when the refresh is refused, and passes the 401 on', async () => {
    sessionStore.set(fakeSession({ access_token: 'old' }));
    api.on('GET /api/things', apiError(401, 'UNAUTHORIZED', 'expired'));
    api.on('POST /api/auth/token', apiError(401, 'UNAUTHORIZED', 'Invalid refresh token'));

    await expect(apiRequest('GET', '/api/things')).rejects.toMatchObject({ status: 401 });
    expect(sessionStore.get()).toBeNull();
    expect(api.requestsTo('GET /api/things')).toHaveLength(1);
  });

  it('does not retry a 401 for a request made with an explicit token', async () => {
    sessionStore.set(fakeSession());
    api.on('PUT /api/auth/user', apiError(401, 'UNAUTHORIZED', 'expired'));
    await expect(apiRequest('PUT', '/api/auth/user', { auth: 'recovery-token' })).rejects.toMatchObject({ status: 401 });
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(0);
    expect(sessionStore.get()).not.toBeNull();
  });
});

describe('refreshIfExpiring', () => {
  it('refreshes only when under a minute is left', async () => {
    api.on('POST /api/auth/token', reply(200, fakeSession({ access_token: 'fresh' })));
    sessionStore.set(fakeSession({ access_token: 'plenty', expiresInSeconds: 120 }));
    await refreshIfExpiring();
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(0);

    sessionStore.set(fakeSession({ access_token: 'nearly', expiresInSeconds: 45 }));
    await refreshIfExpiring();
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(1);
    expect(sessionStore.get()?.access_token).toBe('fresh');
  });

  it('keeps the session when the refresh cannot reach the server', async () => {
    api.on('POST /api/auth/token', networkDown);
    sessionStore.set(fakeSession({ access_token: 'nearly', expiresInSeconds: 10 }));
    await expect(refreshIfExpiring()).rejects.toBeInstanceOf(NetworkError);
    expect(sessionStore.get()?.access_token).toBe('nearly');
  });
});

describe('a change that needs a proof of the person (401 PROOF_REQUIRED)', () => {
  afterEach(() => setProofPrompt(null));

  it('asks the page for the password, then sends the request once more, without refreshing the session', async () => {
    sessionStore.set(fakeSession({ access_token: 'token-a', refresh_token: 'refresh-a' }));
    let calls = 0;
    api.on('PUT /api/vault/keys', () => (++calls === 1 ? apiError(401, 'PROOF_REQUIRED', 'Confirm it is you') : reply(200, { state: 'on' })));
    const asked: string[] = [];
    setProofPrompt(async (message) => {
      asked.push(message);
      return true;
    });
    await expect(apiRequest('PUT', '/api/vault/keys', { body: {} })).resolves.toEqual({ state: 'on' });
    expect(asked).toEqual(['Confirm it is you']);
    expect(api.requestsTo('PUT /api/vault/keys')).toHaveLength(2);
    expect(api.requestsTo('POST /api/auth/token')).toHaveLength(0);
  });

  it('gives the refusal back, sending nothing more, when the person cancels or no prompt is on the page', async () => {
    sessionStore.set(fakeSession({ access_token: 'token-a' }));
    api.on('DELETE /api/vault', apiError(401, 'PROOF_REQUIRED', 'Confirm it is you'));
    setProofPrompt(async () => false);
    await expect(apiRequest('DELETE', '/api/vault')).rejects.toMatchObject({ status: 401, code: 'PROOF_REQUIRED' });
    setProofPrompt(null);
    await expect(apiRequest('DELETE', '/api/vault')).rejects.toMatchObject({ code: 'PROOF_REQUIRED' });
    expect(api.requestsTo('DELETE /api/vault')).toHaveLength(2);
  });
});

