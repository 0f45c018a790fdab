/**
 * The wait after try number `attempt` failed: `firstMs`, doubled with each try, at most `capMs`.
 * With `random`, spread over its upper half, so the retries of one outage do not all come back in
 * the same second.
 */
export function backoffMs(attempt: number, firstMs: number, capMs: number, random?: () => number): number {
  const ceiling = Math.min(capMs, firstMs * 2 ** Math.min(Math.max(attempt - 1, 0), 20));
  return random ? Math.round(ceiling / 2 + (random() * ceiling) / 2) : ceiling;
}
