import { backoffMs } from '../jobs/backoff';
import { SmsSendError } from '../providers/sms/types';

/** A text is tried for this long after it was queued; then it is marked failed. */
const RETRY_WINDOW_MS = 24 * 60 * 60_000;
const FIRST_RETRY_MS = 10_000;
/** Never longer than this between tries, so a text goes out within minutes of the provider's return. */
export const MAX_RETRY_MS = 5 * 60_000;

/**
 * When a failed text (or redaction) is tried next, or null when it is given up: after a 429 at its
 * Retry-After, else after the backoff (doubling from 10 s, at most 5 minutes, spread); never once
 * `startedAt` is more than 24 hours past.
 */
export function nextTryAt(attempts: number, startedAt: string, err: unknown, now: Date): Date | null {
  const retryAfter = err instanceof SmsSendError ? err.details.retryAfterMs : undefined;
  const at = new Date(now.getTime() + (retryAfter ?? backoffMs(attempts, FIRST_RETRY_MS, MAX_RETRY_MS, Math.random)));
  return at.getTime() - Date.parse(startedAt) > RETRY_WINDOW_MS ? null : at;
}

/** The provider's reason, never the text itself. */
export function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, 500);
}
