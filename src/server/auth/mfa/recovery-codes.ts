import { randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../shared/second-factor';
import { hashToken } from '../../crypto/tokens';
import type { Db } from '../../db/database';
import { newId } from '../../ids';

// No 0/O or 1/I/L: a code read off paper is typed right.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** One recovery code, "xxxxx-xxxxx" (about 49 bits). */
function newRecoveryCode(): string {
  const chars = Array.from(randomBytes(10), (b) => ALPHABET[b % ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** As typed: spaces and dashes dropped, lower case. */
const canonical = (code: string) => code.trim().toLowerCase().replace(/[\s-]+/g, '');

/** Replaces the user's recovery codes with ten new ones; returns them (only their hashes are kept). */
export async function replaceRecoveryCodes(db: Db, userId: string, now: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(codes.map((code) => ({ id: newId(), user_id: userId, code_hash: hashToken(canonical(code)), used_at: null, created_at: now })))
    .execute();
  return codes;
}

/** Uses one of the user's recovery codes; false when it is not theirs or was used. */
export async function useRecoveryCode(db: Db, userId: string, code: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashToken(canonical(code)))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteRecoveryCodes(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}
