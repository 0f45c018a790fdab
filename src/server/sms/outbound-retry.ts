import { SmsSendError } from '../providers/sms/types';

/** A text is tried for this long after it was queued; then it is marked failed. */
const RETRY_WINDOW_MS = 24 * 60 * 60_000;
const FIRST_RETRY_MS = 10_000;
/** Never longer than this between tries, so a text goes out within minutes of the provider's return. */
export const MAX_RETRY_MS = 5 * 60_000;

/**
 * The wait after try number `attempts` failed: doubling from 10 s, at most 5 minutes, each spread
 * over its upper half so the texts of an outage do not all come back in the same second.
 */
function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * When a failed text (or redaction) is tried next, or null when it is given up: after a 429 at its
 * Retry-After, else after the backoff; never once `startedAt` is more than 24 hours past.
 */
export function nextTryAt(attempts: number, startedAt: string, err: unknown, now: Date): Date | null {
  const retryAfter = err instanceof SmsSendError ? err.details.retryAfterMs : undefined;
  const at = new Date(now.getTime() + (retryAfter ?? retryDelayMs(attempts)));
  return at.getTime() - Date.parse(startedAt) > RETRY_WINDOW_MS ? null : at;
}

/** The provider's reason, never the text itself. */
export function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.slice(0, 500);
}
