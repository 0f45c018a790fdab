import { RATE_WINDOW_MS } from '../../../shared/limits';

/**
 * A sliding-window attempt counter kept in localStorage (spec 9: sign-in 5 and sign-up 3 attempts
 * per 15 minutes, counted in the browser). The server enforces its own limits as well.
 */
interface AttemptLimit {
  /** Records an attempt if one is allowed now; false when the window is full. */
  tryAttempt(now?: number): boolean;
  /** While the window is full, how long until the oldest attempt leaves it; 0 when one is allowed. */
  retryInMs(now?: number): number;
  reset(): void;
}

export function attemptLimit(storageKey: string, maxAttempts: number, windowMs = RATE_WINDOW_MS): AttemptLimit {
  const recent = (now: number): number[] => {
    try {
      const stored: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
      return Array.isArray(stored) ? stored.filter((t): t is number => typeof t === 'number' && now - t < windowMs) : [];
    } catch {
      return [];
    }
  };
  return {
    tryAttempt(now = Date.now()) {
      const attempts = recent(now);
      if (attempts.length >= maxAttempts) return false;
      try {
        localStorage.setItem(storageKey, JSON.stringify([...attempts, now]));
      } catch {
        // Storage unavailable: the server's limit still applies.
      }
      return true;
    },
    retryInMs(now = Date.now()) {
      const attempts = recent(now);
      return attempts.length < maxAttempts ? 0 : Math.max(0, Math.min(...attempts) + windowMs - now);
    },
    reset() {
      try {
        localStorage.removeItem(storageKey);
      } catch {
        // Nothing to reset.
      }
    },
  };
}
