/** The one error type services throw; the error handler maps its code to an HTTP status. */
export const ErrorCode = {
  INVALID_INPUT: 400,
  /** Wrong email or password (auth clients tell it apart from other 400s). */
  INVALID_CREDENTIALS: 400,
  /** A one-time token or link that is unknown, used or expired. */
  INVALID_TOKEN: 400,
  /** A billing webhook whose signature does not hold. */
  INVALID_SIGNATURE: 400,
  /** A signed billing webhook whose event is not one we can use (a retry could not help). */
  INVALID_EVENT: 400,
  UNAUTHORIZED: 401,
  /** The session is good, but this needs a proof of the person from the last five minutes (auth/fresh-proof.ts). */
  PROOF_REQUIRED: 401,
  ACCESS_REQUIRED: 402,
  FORBIDDEN: 403,
  /** An admin route, for a session signed in without a passkey or a second factor. */
  MFA_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** A save based on an entry's older version: the answer carries the entry as it is now. */
  ENTRY_CHANGED: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** The billing provider failed or refused; the message says what the person can do. */
  BILLING_PROVIDER_ERROR: 502,
  UNAVAILABLE: 503,
} as const;

type ErrorCodeName = keyof typeof ErrorCode;

export class AppError extends Error {
  readonly code: ErrorCodeName;
  readonly details?: Record<string, unknown>;
  /** Fields the answer carries beside `error` (ENTRY_CHANGED's `entry`). */
  readonly extra?: Record<string, unknown>;
  constructor(code: ErrorCodeName, message: string, details?: Record<string, unknown>, extra?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.extra = extra;
  }
  get status(): number {
    return ErrorCode[this.code];
  }
}

export const invalidInput = (message: string, details?: Record<string, unknown>) =>
  new AppError('INVALID_INPUT', message, details);
export const unauthorized = (message: string) => new AppError('UNAUTHORIZED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const mfaRequired = (message: string) => new AppError('MFA_REQUIRED', message);
export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const invalidCredentials = (message: string) => new AppError('INVALID_CREDENTIALS', message);
export const invalidToken = (message: string) => new AppError('INVALID_TOKEN', message);
export const rateLimited = (message: string) => new AppError('RATE_LIMITED', message);
