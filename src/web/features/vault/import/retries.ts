import { ApiError, NetworkError } from '../../../api/errors';

// An import's requests meet passing failures (a dropped connection, a restarting instance, a rate
// limit): each is tried again a few times before the import stops, so a long import of recordings
// does not end on the first one.

/** Tries in all; the waits between them are 1 s, 2 s, 4 s and 8 s unless the server says how long. */
const TRIES = 5;
const FIRST_WAIT_MS = 1_000;
/** A server's Retry-After is kept to this: a tab does not sit silent for longer on one request. */
const LONGEST_WAIT_MS = 60_000;

export const importStopped = () => new DOMException('The import was stopped', 'AbortError');

/**
 * A failure worth another try of a request the server makes idempotent by a key (the entries'
 * import keys, a recording's source key): no answer came (the client's NetworkError, for fetch's
 * TypeError), a gateway or the database was away, or a rate limit.
 */
export const passingFailure = (error: unknown) => error instanceof NetworkError || (error instanceof ApiError && [429, 502, 503, 504].includes(error.status));

/** A failure whose answer says nothing was written (a rate limit, the database away): safe to try again without a key. */
export const nothingWritten = (error: unknown) => error instanceof ApiError && (error.status === 429 || error.status === 503);

/** Retry-After in milliseconds: a number of seconds or an HTTP date; null when not given or unreadable. */
function retryAfterMs(error: unknown): number | null {
  const value = error instanceof ApiError ? error.headers.get('retry-after')?.trim() : undefined;
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1_000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(importStopped());
    const stop = () => {
      clearTimeout(timer);
      reject(importStopped());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** Sends, and sends again after a failure `worthRetrying` says is passing; the last failure is thrown. Stopping ends a wait at once. */
export async function withRetries<T>(send: () => Promise<T>, worthRetrying: (error: unknown) => boolean, signal?: AbortSignal): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await send();
    } catch (error) {
      if (tried >= TRIES || !worthRetrying(error)) throw error;
      await wait(Math.min(retryAfterMs(error) ?? FIRST_WAIT_MS * 2 ** (tried - 1), LONGEST_WAIT_MS), signal);
    }
  }
}
