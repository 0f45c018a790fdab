// Background work has one shape: rows claimed under a lease, each handled and settled, and a claim
// whose lease ran out is claimable again. What a lease is differs by table (a claim time, or an
// expiry); the loop around the claims is this one.

export interface ClaimLoop<Row> {
  /**
   * Claims up to `room` due rows (a compare-and-set, so any number of workers may claim at once) and
   * answers the rows this caller won, or null when nothing is due. `used` counts rows the claim
   * settled itself (e.g. dropped) against the run's limit too.
   */
  claim(room: number): Promise<{ rows: Row[]; used?: number } | null>;
  /** Handles and settles a claimed batch. */
  handle(rows: Row[]): Promise<void>;
  /** At most this many rows a run; the next run goes on. */
  limit?: number;
  /** Shutting down: claim nothing more. */
  stopped?: () => boolean;
}

/** Claims and handles batches until nothing is due, the run's limit is reached, or the job stops. */
export async function workOffClaims<Row>(loop: ClaimLoop<Row>): Promise<void> {
  const limit = loop.limit ?? Infinity;
  let handled = 0;
  while (handled < limit && !loop.stopped?.()) {
    const claimed = await loop.claim(limit - handled);
    if (!claimed) return;
    handled += claimed.used ?? claimed.rows.length;
    if (claimed.rows.length) await loop.handle(claimed.rows);
  }
}

/** Runs `work` on every item, at most `concurrency` at a time, each started in the order given. */
export async function eachAtOnce<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
