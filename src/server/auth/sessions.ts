import { REFRESH_TOKEN_TTL_DAYS } from '../../shared/limits';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { hashToken, randomToken } from '../crypto/tokens';
import type { Db } from '../db/database';
import { unauthorized } from '../errors';
import { newId } from '../ids';
import { recordSecurityEvent } from '../security/events';
import { signAccessToken } from './access-token';
import type { Client } from './limits';
import { insertSessionRecord, PLAIN_STANDING, touchSessionRecord, type SessionStanding } from './mfa/session-records';
import { findAccount, type Account } from './repo';
import { findRefreshToken, insertRefreshToken, markRefreshTokenRotated, revokeFamily } from './token-repo';

/** A signed-in session before presentation. */
export interface SessionGrant {
  accessToken: string;
  /** Unix seconds. */
  issuedAt: number;
  expiresAt: number;
  refreshToken: string;
  account: Account;
  /** The session's id (its refresh-token family). */
  familyId: string;
}

/**
 * Issues an access token and a refresh token in `existingFamily`, or in a new family for a fresh
 * sign-in (recorded with its standing: how it was signed in, and from which device). Every refresh
 * token descended from one sign-in shares the family, so reuse can revoke them all.
 */
export async function startSession(ctx: AppContext, db: Db, userId: string, existingFamily?: string, standing: SessionStanding = PLAIN_STANDING): Promise<SessionGrant> {
  const now = ctx.clock.now();
  const account = await findAccount(db, userId);
  if (!account) throw unauthorized(messages.auth.sessionExpired);
  const familyId = existingFamily ?? newId();
  if (existingFamily) await touchSessionRecord(db, familyId, now.toISOString());
  else await insertSessionRecord(db, { id: familyId, userId, standing, now: now.toISOString() });
  const refreshToken = randomToken();
  await insertRefreshToken(db, {
    id: newId(),
    userId,
    tokenHash: hashToken(refreshToken),
    familyId,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_DAYS * 86_400_000).toISOString(),
    now: now.toISOString(),
  });
  const { token, expiresAt } = await signAccessToken(ctx.keys.accessToken, { userId, sessionFamily: familyId }, now);
  return { accessToken: token, issuedAt: Math.floor(now.getTime() / 1000), expiresAt, refreshToken, account, familyId };
}

/**
 * Trades a refresh token for a new session in the same family. A token presented twice means it
 * leaked (or a client misbehaves): the whole family is revoked and the caller must sign in again.
 */
export async function refreshSession(ctx: AppContext, raw: string, client: Client): Promise<SessionGrant> {
  const now = ctx.clock.now().toISOString();
  const token = await findRefreshToken(ctx.db, hashToken(raw));
  if (!token) throw unauthorized(messages.auth.invalidRefreshToken);
  const refuseReuse = async () => {
    await revokeFamily(ctx.db, token.family_id, now);
    ctx.events.publish(token.user_id, { type: 'sessions.changed' });
    await recordSecurityEvent(ctx, {
      event_type: 'refresh_token_reuse',
      identifier: token.user_id,
      details: { family: token.family_id },
      severity: 'high',
      user_id: token.user_id,
      ip: client.ip,
    });
    return unauthorized(messages.auth.invalidRefreshToken);
  };
  if (token.revoked_at) throw unauthorized(messages.auth.invalidRefreshToken);
  if (token.rotated_at) throw await refuseReuse();
  if (token.expires_at <= now) throw unauthorized(messages.auth.sessionExpired);
  const grant = await ctx.db.transaction().execute(async (trx) => {
    if (!(await markRefreshTokenRotated(trx, token.id, now))) return undefined;
    return startSession(ctx, trx, token.user_id, token.family_id);
  });
  // Another request rotated it between our read and our update: the same token was used twice.
  if (!grant) throw await refuseReuse();
  return grant;
}
