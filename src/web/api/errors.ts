/** The server answered with `{error: {code, message}}` (or at least a non-2xx status). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The whole answer, for errors that carry more than `error` (ENTRY_CHANGED's `entry`). */
  readonly body?: unknown;
  /** The answer's headers (a 429's or 503's Retry-After); empty for an error made here. */
  readonly headers: Headers;
  constructor(status: number, code: string, message: string, body?: unknown, headers?: Headers) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
    this.headers = headers ?? new Headers();
  }
}

/** The request never got an answer: offline, DNS, connection reset. */
export class NetworkError extends Error {
  constructor(message = 'Network request failed', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

/** Builds an ApiError from a failed response's body, whatever shape it turned out to have. */
export function apiErrorFrom(status: number, body: unknown, headers?: Headers): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : `HTTP_${status}`;
  const message = typeof error?.message === 'string' && error.message ? error.message : `Request failed (${status})`;
  return new ApiError(status, code, message, body, headers);
}
