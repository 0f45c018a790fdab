import { sql } from 'kysely';
import { VERIFICATION_TIMINGS } from '../../shared/limits';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { verifyPassword } from './passwords';

/**
 * A sign-up whose phone is not verified yet is pending: it claims its number without holding it
 * (auth/phone-claims.ts), and it lapses 10 minutes (the verification page's wait) after its
 * verification text is due.
 */
export const PENDING_SIGN_UP_MS = VERIFICATION_TIMINGS.timeoutMs;

/** When a pending sign-up lapses (rows from before the column: 10 minutes after the sign-up). */
export function signUpLapsesAt(profile: { verification_expires_at: string | null; created_at: string }): string {
  return profile.verification_expires_at ?? new Date(Date.parse(profile.created_at) + PENDING_SIGN_UP_MS).toISOString();
}

const hasNoEntries = (db: Db, userId: string) =>
  db
    .selectFrom('journal_entries')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst()
    .then((entry) => !entry);

/**
 * The pending sign-up holding this e-mail address that a new sign-up may take the place of: one
 * that lapsed, or the same person starting over (the same password). Anyone else's pending sign-up
 * stands, and so does one that wrote in its journal.
 */
export async function replaceableSignUp(db: Db, now: Date, email: string, password: string): Promise<string | undefined> {
  const pending = await db
    .selectFrom('users')
    .innerJoin('profiles', 'profiles.id', 'users.id')
    .select(['users.id', 'users.password_hash', 'profiles.verification_expires_at', 'profiles.created_at'])
    .where('users.email', '=', email)
    .where('profiles.phone_verified', '=', 0)
    .executeTakeFirst();
  if (!pending || !(await hasNoEntries(db, pending.id))) return undefined;
  const lapsed = signUpLapsesAt(pending) <= now.toISOString();
  return lapsed || (await verifyPassword(pending.password_hash, password)) ? pending.id : undefined;
}

/**
 * A pending sign-up in use is not removed under its owner: the lapse counts from the last time the
 * signed-in owner was seen (GET /api/auth/user, which the journal asks while the phone is unverified).
 */
export async function renewPendingSignUp(db: Db, now: Date, userId: string): Promise<void> {
  await db
    .updateTable('profiles')
    .set({ verification_expires_at: new Date(now.getTime() + PENDING_SIGN_UP_MS).toISOString() })
    .where('id', '=', userId)
    .where('phone_verified', '=', 0)
    .execute();
}

/** Removes a pending sign-up that wrote nothing (foreign keys take the rest); true when it did. */
export async function removePendingSignUp(db: Db, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('users')
    .where('users.id', '=', userId)
    .where('users.id', 'in', (eb) => eb.selectFrom('profiles').select('profiles.id').where('profiles.phone_verified', '=', 0))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('journal_entries').select('journal_entries.id').whereRef('journal_entries.user_id', '=', 'users.id'))))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The expiry job: removes lapsed pending sign-ups that wrote nothing. */
export async function expirePendingSignUps(ctx: AppContext): Promise<number> {
  // One statement, so a YES or a first entry arriving meanwhile keeps the account.
  // Found through the index of unverified profiles (migration 2026-11-24-0020; its condition
  // written in, as a partial index needs): reading every user to find them held the event loop for
  // a moment every minute, longer with each account.
  const result = await ctx.db
    .deleteFrom('users')
    .where('users.id', 'in', (eb) =>
      eb
        .selectFrom('profiles')
        .select('profiles.id')
        .where('profiles.phone_verified', '=', sql.lit(0))
        .where('profiles.verification_expires_at', '<=', ctx.clock.now().toISOString()),
    )
    .where((eb) => eb.not(eb.exists(eb.selectFrom('journal_entries').select('journal_entries.id').whereRef('journal_entries.user_id', '=', 'users.id'))))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
