import { ApiError, apiErrorFrom, NetworkError } from './errors';
import { askForProof } from './proof';
import { secondsLeft, sessionStore } from './session-store';
import { isSession, type Session } from './types';

/** Refresh when fewer than this many seconds of the access token remain (spec 9). */
const REFRESH_MARGIN_SECONDS = 60;

interface RequestOptions {
  body?: unknown;
  /**
   * 'session' (default): send the stored session's token, refreshing once on a 401.
   * A string: send exactly this token (a temporary recovery session), never refresh.
   * false: send no token.
   */
  auth?: 'session' | string | false;
  signal?: AbortSignal;
  /** Headers besides the JSON and session ones (e.g. `Idempotency-Key`). */
  headers?: Record<string, string>;
}

/** JSON in, JSON out; throws ApiError for error answers and NetworkError when no answer came. */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const auth = options.auth ?? 'session';
  const token = auth === 'session' ? sessionStore.get()?.access_token : auth || undefined;
  try {
    return await send<T>(method, path, options, token);
  } catch (error) {
    // The session is good; the person is asked to prove it is them, and the request goes again.
    if (auth === 'session' && error instanceof ApiError && error.code === 'PROOF_REQUIRED') {
      if (!(await askForProof(error.message))) throw error;
      return send<T>(method, path, options, sessionStore.get()?.access_token);
    }
    const canRefresh = auth === 'session' && token && error instanceof ApiError && error.status === 401;
    if (!canRefresh) throw error;
    const refreshed = await refreshSession(token);
    if (!refreshed) throw error;
    return send<T>(method, path, options, refreshed.access_token);
  }
}

async function send<T>(method: string, path: string, options: RequestOptions, token: string | undefined): Promise<T> {
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new NetworkError(undefined, { cause: error });
  }

  const text = response.status === 204 ? '' : await response.text().catch(() => '');
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) throw apiErrorFrom(response.status, body, response.headers);
  return body as T;
}

let refreshInFlight: Promise<Session | null> | null = null;

/**
 * Trades the refresh token for a new session, once at a time (single flight in this tab, and a Web
 * Lock across tabs where the browser has one), because refresh tokens rotate and presenting one twice
 * revokes the whole family. `staleAccessToken` is the token that was found wanting: if the stored
 * session no longer carries it, someone else already refreshed and that session is returned.
 * A refused refresh clears the session; a network failure keeps it for the next try.
 */
export function refreshSession(staleAccessToken?: string): Promise<Session | null> {
  refreshInFlight ??= withRefreshLock(async () => {
    const current = sessionStore.get();
    if (!current) return null;
    if (staleAccessToken && current.access_token !== staleAccessToken) return current;
    try {
      const next = await send<unknown>('POST', '/api/auth/token', {
        body: { grant_type: 'refresh_token', refresh_token: current.refresh_token },
      }, undefined);
      if (!isSession(next)) throw new ApiError(500, 'INVALID_RESPONSE', 'Unexpected response format');
      sessionStore.set(next);
      return next;
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        sessionStore.clear();
        return null;
      }
      throw error;
    }
  }).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

/** The auto-refresh tick: refreshes when the stored session is close to expiring. */
export async function refreshIfExpiring(nowMs = Date.now()): Promise<void> {
  const current = sessionStore.get();
  if (!current || secondsLeft(current, nowMs) > REFRESH_MARGIN_SECONDS) return;
  await refreshSession(current.access_token);
}

function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks?.request) return work();
  return locks.request('jotline-session-refresh', work) as Promise<T>;
}
