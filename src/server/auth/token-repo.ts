import type { Db } from '../db/database';
import type { OneTimeTokenPurpose } from '../db/tables';

interface NewRefreshToken {
  id: string;
  userId: string;
  tokenHash: string;
  familyId: string;
  expiresAt: string;
  now: string;
}

export async function insertRefreshToken(db: Db, token: NewRefreshToken): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      id: token.id,
      user_id: token.userId,
      token_hash: token.tokenHash,
      family_id: token.familyId,
      rotated_at: null,
      revoked_at: null,
      expires_at: token.expiresAt,
      created_at: token.now,
    })
    .execute();
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks a live token as exchanged; false when another request got there first. */
export async function markRefreshTokenRotated(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ rotated_at: now })
    .where('id', '=', id)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function revokeFamily(db: Db, familyId: string, now: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

/** True while the session (refresh-token family) is signed in: not revoked by sign-out, reuse or a password change. */
export async function hasLiveSession(db: Db, userId: string, familyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('id')
    .where('family_id', '=', familyId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/** Revokes every family of the user, or every one but `exceptFamilyId`. */
export async function revokeUserFamilies(db: Db, userId: string, now: string, exceptFamilyId?: string): Promise<void> {
  let query = db.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptFamilyId) query = query.where('family_id', '!=', exceptFamilyId);
  await query.execute();
}

interface NewOneTimeToken {
  id: string;
  userId: string;
  purpose: OneTimeTokenPurpose;
  tokenHash: string;
  expiresAt: string;
  now: string;
}

export async function insertOneTimeToken(db: Db, token: NewOneTimeToken): Promise<void> {
  await db
    .insertInto('one_time_tokens')
    .values({
      id: token.id,
      user_id: token.userId,
      purpose: token.purpose,
      token_hash: token.tokenHash,
      expires_at: token.expiresAt,
      used_at: null,
      created_at: token.now,
    })
    .execute();
}

/** An unused, unexpired token of that purpose. */
export async function findUsableOneTimeToken(db: Db, purpose: OneTimeTokenPurpose, tokenHash: string, now: string) {
  return db
    .selectFrom('one_time_tokens')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Uses a token once; false when it was already used. */
export async function markOneTimeTokenUsed(db: Db, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('one_time_tokens').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Uses up every outstanding token of that purpose (e.g. recovery links after a password change). */
export async function useUpOneTimeTokens(db: Db, userId: string, purpose: OneTimeTokenPurpose, now: string): Promise<void> {
  await db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
