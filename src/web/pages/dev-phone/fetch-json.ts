/**
 * Plain fetch for the developer pages, which live outside the signed-in app: JSON in and out, and
 * the server's `{error: {message}}` as the thrown Error's message.
 */
export class DevRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'DevRequestError';
  }
}

export async function fetchJson<T>(url: string, init?: { method?: string; body?: unknown; signal?: AbortSignal }): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init?.method ?? 'GET',
      headers: init?.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: init?.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init?.signal,
    });
  } catch {
    throw new DevRequestError('Cannot reach the Jotline server. Is it running?', 0);
  }
  const payload = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
  if (!res.ok) throw new DevRequestError(payload?.error?.message ?? `The server answered ${res.status}.`, res.status);
  return payload as T;
}

/** Query retry policy: one retry for a network or server hiccup; a 4xx answer will not change. */
export function retryOnce(failureCount: number, error: Error): boolean {
  const refused = error instanceof DevRequestError && error.status >= 400 && error.status < 500;
  return !refused && failureCount < 1;
}
