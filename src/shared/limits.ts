/** Limits from the product spec, shared by the web app and the server. */
export const EMAIL_MAX_LENGTH = 254;
/** Characters the phone field and the API take (punctuation and spaces included): digits are what count, at most PHONE_MAX_DIGITS. */
export const PHONE_MAX_LENGTH = 32;
export const PHONE_MAX_DIGITS = 11;
/** One password rule for sign-up, reset and change (shared/auth-schemas.ts): this long, with an upper- and a lower-case letter and a digit. */
export const PASSWORD_MIN_LENGTH = 8;

export const TRIAL_DAYS = 10;

/** Twilio's own maximum for one message (10 segments); anything longer did not come from a handset. */
export const INBOUND_TEXT_MAX = 1600;

/** Rate-limit windows (server side, and mirrored in the browser). */
export const RATE_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_FAILURES_PER_WINDOW = 5;
export const SIGN_UPS_PER_WINDOW = 3;
/** Exports per window: generous for TXT, Markdown, JSON and PDFs without photos; tight for PDFs with photos. */
export const EXPORTS_PER_WINDOW = 60;
export const PHOTO_PDF_EXPORTS_PER_WINDOW = 5;

/** Sessions. */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const REFRESH_TOKEN_TTL_DAYS = 30;

/** Phone-verification page timings (spec section 9). */
export const VERIFICATION_TIMINGS = {
  firstCheckMs: 1_000,
  pollMs: 2_000,
  backoffStepMs: 2_000,
  backoffCapMs: 15_000,
  failuresBeforeError: 3,
  slowHintMs: 30_000,
  helpHintMs: 120_000,
  timeoutMs: 10 * 60 * 1000,
  redirectAfterSuccessMs: 1_000,
} as const;
