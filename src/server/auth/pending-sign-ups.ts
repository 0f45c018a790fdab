import { sql } from 'kysely';
import { VERIFICATION_TIMINGS } from '../../shared/limits';
import type { AppContext } from '../context';
import type { Db } from '../db/database';

/**
 * A sign-up whose phone is not verified yet is pending: it holds neither its phone number nor its
 * e-mail address against a newer sign-up, and it lapses when the verification page gives up
 * (10 minutes). The number belongs to whoever verifies it.
 */
export const PENDING_SIGN_UP_MS = VERIFICATION_TIMINGS.timeoutMs;

const lapsedBefore = (now: Date) => new Date(now.getTime() - PENDING_SIGN_UP_MS).toISOString();

/**
 * Removes the pending sign-ups holding the e-mail address or the phone number (with everything
 * they own), so a newer sign-up can take their place; their verification links stop working.
 * Returns the storage keys of any photos they had, to delete once the transaction has committed.
 */
export async function removePendingSignUpsHolding(db: Db, identity: { email: string; phone: string }): Promise<string[]> {
  // The two holders found through their own indexes: an OR across the two tables read every profile.
  const pending = await db
    .selectFrom('profiles')
    .select('profiles.id')
    .where('profiles.phone_verified', '=', 0)
    .where('profiles.id', 'in', (eb) =>
      eb
        .selectFrom('users')
        .select('users.id')
        .where('users.email', '=', identity.email)
        .union(eb.selectFrom('profiles as holder').select('holder.id').where('holder.phone_number', '=', identity.phone)),
    )
    .execute();
  return removeAccounts(db, pending.map((p) => p.id));
}

async function removeAccounts(db: Db, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const photos = await db.selectFrom('journal_photos').select(['file_path', 'thumb_path']).where('user_id', 'in', userIds).execute();
  // Everything else an account owns goes with it (foreign keys cascade).
  await db.deleteFrom('users').where('id', 'in', userIds).execute();
  return photos.flatMap((p) => [p.file_path, p.thumb_path]);
}

/** Deletes stored photo files; a file already gone is fine. */
export async function deleteStoredFiles(ctx: AppContext, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => ctx.storage.delete(key).catch(() => undefined)));
}

/**
 * True when a pending sign-up's window has passed: YES no longer verifies it and the expiry job
 * removes it. One that already wrote in its journal is kept (nothing a person wrote is deleted
 * behind their back), so it can still be verified.
 */
export async function isLapsedSignUp(db: Db, profile: { id: string; phone_verified: number; created_at: string }, now: Date): Promise<boolean> {
  if (profile.phone_verified === 1 || profile.created_at > lapsedBefore(now)) return false;
  const entry = await db.selectFrom('journal_entries').select('id').where('user_id', '=', profile.id).limit(1).executeTakeFirst();
  return !entry;
}

/** The expiry job: removes pending sign-ups older than the verification window that wrote nothing. */
export async function expirePendingSignUps(ctx: AppContext): Promise<number> {
  // One statement, so a YES or a first entry arriving meanwhile keeps the account.
  // Found through the index of unverified profiles (migration 2026-11-24-0020; its condition
  // written in, as a partial index needs): reading every user to find them held the event loop for
  // a moment every minute, longer with each account.
  const result = await ctx.db
    .deleteFrom('users')
    .where('users.id', 'in', (eb) => eb.selectFrom('profiles').select('profiles.id').where('profiles.phone_verified', '=', sql.lit(0)))
    .where('users.created_at', '<=', lapsedBefore(ctx.clock.now()))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('journal_entries').select('journal_entries.id').whereRef('journal_entries.user_id', '=', 'users.id'))))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
