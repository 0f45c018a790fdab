import type { SecondFactorMethod } from '../../../shared/second-factor';
import type { Db } from '../../db/database';
import { rateLimitKey, type RateLimit } from '../../rate-limit';

/**
 * Wrong codes per account, across mfa_tokens and turning TOTP off: a password holder who asks for a
 * new mfa_token after every five wrong codes still gets no more than this many guesses in 15 minutes.
 */
export const WRONG_SECOND_STEPS: RateLimit = { limit: 20, windowMs: 15 * 60_000 };
export const wrongSecondStepsKey = (userId: string) => rateLimitKey('mfa-failures', userId);

/** The second factors the user has: a passkey, TOTP, and unused recovery codes (with TOTP). */
export async function secondFactorsOf(db: Db, userId: string): Promise<SecondFactorMethod[]> {
  const [passkey, totp, recovery] = await Promise.all([
    db.selectFrom('passkeys').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst(),
    db.selectFrom('totp_factors').select('user_id').where('user_id', '=', userId).where('confirmed_at', 'is not', null).executeTakeFirst(),
    db.selectFrom('recovery_codes').select('id').where('user_id', '=', userId).where('used_at', 'is', null).limit(1).executeTakeFirst(),
  ]);
  const methods: SecondFactorMethod[] = [];
  if (passkey) methods.push('passkey');
  if (totp) methods.push('totp');
  if (totp && recovery) methods.push('recovery_code');
  return methods;
}

export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  return (await secondFactorsOf(db, userId)).length > 0;
}
