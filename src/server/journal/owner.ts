import type { AppContext } from '../context';
import { AppError } from '../errors';

export interface JournalOwner {
  userId: string;
  /** Per-user salt of the text key. */
  salt: string;
  timezone: string;
}

// A key salt never changes, so it is cached per app; the timezone is read fresh when needed.
const MAX_CACHED_SALTS = 100_000;
const salts = new WeakMap<AppContext, Map<string, string>>();

function saltCache(ctx: AppContext): Map<string, string> {
  let cache = salts.get(ctx);
  if (!cache) {
    cache = new Map();
    salts.set(ctx, cache);
  }
  return cache;
}

async function readProfile(ctx: AppContext, userId: string) {
  const profile = await ctx.db.selectFrom('profiles').select(['key_salt', 'timezone']).where('id', '=', userId).executeTakeFirst();
  if (!profile) throw new AppError('NOT_FOUND', 'Profile not found');
  const cache = saltCache(ctx);
  if (cache.size >= MAX_CACHED_SALTS) cache.clear();
  cache.set(userId, profile.key_salt);
  return profile;
}

/** The user's key salt (cached). */
export async function ownerSalt(ctx: AppContext, userId: string): Promise<string> {
  const salt = saltCache(ctx).get(userId);
  return salt ?? (await readProfile(ctx, userId)).key_salt;
}

/** Salt and current timezone (default UTC) of the journal's owner. */
export async function loadOwner(ctx: AppContext, userId: string): Promise<JournalOwner> {
  const profile = await readProfile(ctx, userId);
  return { userId, salt: profile.key_salt, timezone: profile.timezone || 'UTC' };
}
