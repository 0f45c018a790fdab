import { randomInt } from 'node:crypto';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import type { Profile } from '../db/tables';
import { signUpLapsesAt } from './pending-sign-ups';
import { isUniqueViolation } from './repo';

/**
 * A phone number belongs to the account its owner confirmed by text; until then a sign-up only
 * claims it, and several sign-ups may claim one number (an attacker's beside the owner's). The
 * owner decides: YES verifies the one claim there is; with several, YES verifies none and the
 * owner replies with the code of their own (sms/inbound-rules.ts). A new sign-up never removes
 * another's claim, and the database lets one account at most verify a number.
 */
export interface PhoneClaim {
  userId: string;
  email: string;
  /** What the owner replies to pick this claim when several wait. */
  code: string;
}

/** The account that verified the number, if any: the only account texts from it ever reach. */
export async function findPhoneHolder(db: Db, phone: string): Promise<Profile | undefined> {
  return db.selectFrom('profiles').selectAll().where('phone_number', '=', phone).where('phone_verified', '=', 1).executeTakeFirst();
}

/**
 * The sign-ups waiting for this number's YES, oldest first. A lapsed one still waits when it wrote
 * in its journal: nothing a person wrote is dropped behind their back.
 */
export async function liveClaimsOn(db: Db, phone: string, now: Date): Promise<PhoneClaim[]> {
  const rows = await db
    .selectFrom('profiles')
    .innerJoin('users', 'users.id', 'profiles.id')
    .select(['profiles.id', 'users.email', 'profiles.verification_code', 'profiles.verification_expires_at', 'profiles.created_at'])
    .select((eb) => eb.exists(eb.selectFrom('journal_entries').select('journal_entries.id').whereRef('journal_entries.user_id', '=', 'profiles.id')).as('wrote'))
    .where('profiles.phone_number', '=', phone)
    .where('profiles.phone_verified', '=', 0)
    .orderBy('profiles.created_at')
    .orderBy('profiles.id')
    .execute();
  const at = now.toISOString();
  return rows
    .filter((row) => signUpLapsesAt(row) > at || Boolean(row.wrote))
    .map((row) => ({ userId: row.id, email: row.email, code: row.verification_code ?? '' }));
}

/** A code for a new claim on the number, unlike those of the sign-ups already waiting for it. */
export async function newClaimCode(db: Db, phone: string): Promise<string> {
  const rows = await db.selectFrom('profiles').select('verification_code').where('phone_number', '=', phone).where('phone_verified', '=', 0).execute();
  const taken = new Set(rows.map((r) => r.verification_code));
  for (;;) {
    const code = String(randomInt(10_000)).padStart(4, '0');
    if (!taken.has(code)) return code;
  }
}

/**
 * Verifies the number on this sign-up (YES is consent, so it opts in too); false when it was not
 * pending, or another account verified the number first.
 */
export async function confirmClaim(ctx: AppContext, userId: string): Promise<boolean> {
  try {
    const result = await ctx.db
      .updateTable('profiles')
      .set({ phone_verified: 1, is_opted_out: 0, verification_code: null, verification_expires_at: null, updated_at: ctx.clock.now().toISOString() })
      .where('id', '=', userId)
      .where('phone_verified', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
