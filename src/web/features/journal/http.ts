import { refreshSession } from '../../api/client';
import { ApiError, apiErrorFrom, NetworkError } from '../../api/errors';
import { sessionStore } from '../../api/session-store';

/**
 * A signed-in fetch for what the JSON client cannot carry (multipart uploads, file downloads):
 * sends the session's bearer token, refreshes once on a 401, and throws the client's ApiError /
 * NetworkError. Answers with the raw Response when it is OK.
 */
export async function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const token = sessionStore.get()?.access_token;
  const first = await send(path, init, token);
  if (first.status !== 401 || !token) return checked(first);
  const refreshed = await refreshSession(token).catch(() => null);
  if (!refreshed) return checked(first);
  return checked(await send(path, init, refreshed.access_token));
}

async function send(path: string, init: RequestInit, token: string | undefined): Promise<Response> {
  // A plain object, so callers pass plain objects too.
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(path, { ...init, headers });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new NetworkError(undefined, { cause: error });
  }
}

async function checked(response: Response): Promise<Response> {
  if (response.ok) return response;
  throw apiErrorFrom(response.status, await readBody(response), response.headers);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** Multipart POST answering JSON (photo uploads, entries with photos). */
export async function postForm<T>(path: string, form: FormData, headers: Record<string, string> = {}): Promise<T> {
  const response = await authorizedFetch(path, { method: 'POST', body: form, headers: { ...headers, Accept: 'application/json' } });
  const body = await readBody(response);
  if (body === undefined || typeof body === 'string') throw new ApiError(500, 'INVALID_RESPONSE', 'Unexpected response format');
  return body as T;
}
