import { sql } from 'kysely';
import type { AppContext } from './context';
import { hashToken } from './crypto/tokens';
import { newId } from './ids';

/** At most `limit` hits per key in any sliding window of `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Hits older than this are deleted; no window may be longer. */
export const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60 * 1000;

// One hit in this many also sweeps expired rows, so the table stays small without a job.
const SWEEP_ONE_IN = 50;

/**
 * The stored key: a readable scope and a hash of the subject, so the table never holds
 * e-mail addresses, phone numbers or IP addresses in the clear.
 */
export function rateLimitKey(scope: string, subject: string): string {
  return `${scope}:${hashToken(subject.toLowerCase())}`;
}

const windowStart = (ctx: AppContext, windowMs: number) => {
  if (windowMs > RATE_LIMIT_RETENTION_MS) throw new Error('Rate-limit window longer than the retention period');
  return new Date(ctx.clock.now().getTime() - windowMs).toISOString();
};

/** How many hits the key has in the window. */
export async function countHits(ctx: AppContext, key: string, windowMs: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('rate_limit_hits')
    .select(sql<number>`count(*)`.as('hits'))
    .where('key', '=', key)
    .where('created_at', '>', windowStart(ctx, windowMs))
    .executeTakeFirst();
  return Number(row?.hits ?? 0);
}

/** True when the key has already used its allowance (without recording anything). */
export async function isLimited(ctx: AppContext, key: string, rule: RateLimit): Promise<boolean> {
  return (await countHits(ctx, key, rule.windowMs)) >= rule.limit;
}

/** Records one hit (for counting failures after the fact). */
export async function recordHit(ctx: AppContext, key: string): Promise<void> {
  await ctx.db.insertInto('rate_limit_hits').values({ id: newId(), key, created_at: ctx.clock.now().toISOString() }).execute();
  if (Math.floor(Math.random() * SWEEP_ONE_IN) === 0) await sweepRateLimitHits(ctx);
}

/**
 * Takes one hit from the key's allowance: true when allowed. Insert-then-count holds across
 * instances; a refused hit is removed again so retrying does not extend the wait.
 */
export async function hit(ctx: AppContext, key: string, rule: RateLimit): Promise<boolean> {
  const id = newId();
  await ctx.db.insertInto('rate_limit_hits').values({ id, key, created_at: ctx.clock.now().toISOString() }).execute();
  const hits = await countHits(ctx, key, rule.windowMs);
  if (hits > rule.limit) {
    await ctx.db.deleteFrom('rate_limit_hits').where('id', '=', id).execute();
    return false;
  }
  if (Math.floor(Math.random() * SWEEP_ONE_IN) === 0) await sweepRateLimitHits(ctx);
  return true;
}

/** Forgets a key's hits (e.g. an operator lifting a lock). */
export async function clearHits(ctx: AppContext, key: string): Promise<void> {
  await ctx.db.deleteFrom('rate_limit_hits').where('key', '=', key).execute();
}

/** Deletes hits older than the retention period. */
export async function sweepRateLimitHits(ctx: AppContext): Promise<number> {
  // The earlier of this instance's clock and the wall clock: an instance whose clock runs ahead
  // (or a test that moves it) must not sweep hits other instances still count.
  const newest = Math.min(ctx.clock.now().getTime(), Date.now());
  const cutoff = new Date(newest - RATE_LIMIT_RETENTION_MS).toISOString();
  const result = await ctx.db.deleteFrom('rate_limit_hits').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
