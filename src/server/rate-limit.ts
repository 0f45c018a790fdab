import { sql } from 'kysely';
import type { AppContext } from './context';
import type { Db } from './db/database';
import { hashToken } from './crypto/tokens';
import { newId } from './ids';

/** At most `limit` hits per key in any sliding window of `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Hits older than this are deleted; no window may be longer. */
const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60 * 1000;

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

async function countHitsIn(db: Db, key: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_hits')
    .select(sql<number>`count(*)`.as('hits'))
    .where('key', '=', key)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.hits ?? 0);
}

/** How many hits the key has in the window. */
export async function countHits(ctx: AppContext, key: string, windowMs: number): Promise<number> {
  return countHitsIn(ctx.db, key, windowStart(ctx, windowMs));
}

/** True when the key has already used its allowance (without recording anything). */
export async function isLimited(ctx: AppContext, key: string, rule: RateLimit): Promise<boolean> {
  return (await countHits(ctx, key, rule.windowMs)) >= rule.limit;
}

/** Records one hit (for counting failures after the fact). */
export async function recordHit(ctx: AppContext, key: string): Promise<void> {
  await ctx.db.insertInto('rate_limit_hits').values({ id: newId(), key, created_at: ctx.clock.now().toISOString() }).execute();
}

/** One key's share of a reservation: the key and the rule it is counted against. */
export interface LimitedKey {
  key: string;
  rule: RateLimit;
}

// A 52-bit number from the key, for PostgreSQL's advisory locks (a bigint namespace).
const lockNumber = (key: string) => Number.parseInt(hashToken(key).slice(0, 13), 16);

/**
 * Takes one hit from each key's allowance, all or none: the hit ids when every key still had
 * room, null when any was used up (then nothing is recorded, so retrying does not extend the
 * wait). Exact under any burst and across instances: each key is locked for the count and the
 * insert (PostgreSQL advisory locks; SQLite runs one write transaction at a time).
 */
export async function reserveHits(ctx: AppContext, keys: LimitedKey[]): Promise<string[] | null> {
  const at = ctx.clock.now().toISOString();
  const reserved = await ctx.db.transaction().execute(async (trx) => {
    if (ctx.dbKind === 'postgres') {
      // Sorted, so two reservations over the same keys never wait on each other in a cycle.
      const locks = [...new Set(keys.map((k) => lockNumber(k.key)))].sort((a, b) => a - b);
      for (const lock of locks) await sql`select pg_advisory_xact_lock(${lock}::bigint)`.execute(trx);
    }
    const ids = keys.map(() => newId());
    // Inserting first takes SQLite's write lock before the count, so other processes wait too.
    await trx
      .insertInto('rate_limit_hits')
      .values(keys.map((k, i) => ({ id: ids[i]!, key: k.key, created_at: at })))
      .execute();
    for (const { key, rule } of keys) {
      if ((await countHitsIn(trx, key, windowStart(ctx, rule.windowMs))) > rule.limit) {
        await trx.deleteFrom('rate_limit_hits').where('id', 'in', ids).execute();
        return null;
      }
    }
    return ids;
  });
  return reserved;
}

/** Gives reserved hits back (e.g. an attempt that turned out not to count). */
export async function releaseHits(ctx: AppContext, ids: string[]): Promise<void> {
  if (ids.length > 0) await ctx.db.deleteFrom('rate_limit_hits').where('id', 'in', ids).execute();
}

/** Takes one hit from the key's allowance: true when allowed (exact under bursts, see reserveHits). */
export async function hit(ctx: AppContext, key: string, rule: RateLimit): Promise<boolean> {
  return (await reserveHits(ctx, [{ key, rule }])) !== null;
}

/** Forgets a key's hits (e.g. an operator lifting a lock). */
export async function clearHits(ctx: AppContext, key: string): Promise<void> {
  await ctx.db.deleteFrom('rate_limit_hits').where('key', '=', key).execute();
}

/** Forgets the hits of every key that starts with the prefix (e.g. all of one account's pairs). */
export async function clearHitsByPrefix(ctx: AppContext, prefix: string): Promise<void> {
  if (!/^[a-z0-9:-]+$/i.test(prefix)) throw new Error('Rate-limit key prefixes are plain words and hashes');
  let matching = ctx.db.deleteFrom('rate_limit_hits').where('key', 'like', `${prefix}%`);
  // SQLite's LIKE ignores case, so it cannot use the key index and read every hit kept: the same keys
  // as a range (exact under SQLite's byte order, since keys are plain words) can.
  if (ctx.dbKind === 'sqlite') matching = matching.where('key', '>=', prefix).where('key', '<', `${prefix}\u{10ffff}`);
  await matching.execute();
}

/** Deletes hits older than the retention period, and says how many (a background job: jobs/definitions.ts). */
export async function sweepRateLimitHits(ctx: AppContext): Promise<number> {
  // The earlier of this instance's clock and the wall clock: an instance whose clock runs ahead
  // (or a test that moves it) must not sweep hits other instances still count.
  const newest = Math.min(ctx.clock.now().getTime(), Date.now());
  const cutoff = new Date(newest - RATE_LIMIT_RETENTION_MS).toISOString();
  const result = await ctx.db.deleteFrom('rate_limit_hits').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
