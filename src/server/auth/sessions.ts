import { createHmac } from 'node:crypto';
import { REFRESH_TOKEN_TTL_DAYS } from '../../shared/limits';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { hashToken, randomToken } from '../crypto/tokens';
import type { Db } from '../db/database';
import { unauthorized } from '../errors';
import { newId } from '../ids';
import { recordSecurityEvent } from '../security/events';
import { knownDevice } from './device-cookies';
import { signAccessToken } from './access-token';
import type { Client } from './limits';
import { insertSessionRecord, PLAIN_STANDING, touchSessionRecord, type SessionStanding } from './mfa/session-records';
import { findAccount, type Account } from './repo';
import { findRefreshToken, insertRefreshToken, markRefreshTokenRotated, revokeFamily } from './token-repo';

/**
 * How long a refresh token already traded still gets the same new pair (two tabs waking together,
 * a retry after a lost answer) before presenting it again counts as reuse.
 */
export const REFRESH_REUSE_INTERVAL_MS = 10_000;

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
export async function startSession(
  ctx: AppContext,
  db: Db,
  userId: string,
  existingFamily?: string,
  standing: SessionStanding = PLAIN_STANDING,
  refreshToken: string = randomToken(),
): Promise<SessionGrant> {
  const now = ctx.clock.now();
  const account = await findAccount(db, userId);
  if (!account) throw unauthorized(messages.auth.sessionExpired);
  const familyId = existingFamily ?? newId();
  if (existingFamily) await touchSessionRecord(db, familyId, now.toISOString());
  else await insertSessionRecord(db, { id: familyId, userId, standing, now: now.toISOString() });
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
 * The refresh token that follows `raw` when it is traded: keyed by the server, so only the server
 * can tell it from the old one, and the same for every request that trades `raw`.
 */
const successorOf = (ctx: AppContext, raw: string) => createHmac('sha256', ctx.keys.links).update(`refresh-successor:${raw}`).digest('base64url');

/** The pair a token traded within the reuse interval got, with a fresh access token; undefined past it or once signed out. */
async function sameNewPair(ctx: AppContext, raw: string, rotatedAt: string | null): Promise<SessionGrant | undefined> {
  const now = ctx.clock.now();
  if (!rotatedAt || now.getTime() - Date.parse(rotatedAt) >= REFRESH_REUSE_INTERVAL_MS) return undefined;
  const refreshToken = successorOf(ctx, raw);
  const successor = await findRefreshToken(ctx.db, hashToken(refreshToken));
  if (!successor || successor.revoked_at) return undefined;
  const account = await findAccount(ctx.db, successor.user_id);
  if (!account) return undefined;
  const { token, expiresAt } = await signAccessToken(ctx.keys.accessToken, { userId: successor.user_id, sessionFamily: successor.family_id }, now);
  return { accessToken: token, issuedAt: Math.floor(now.getTime() / 1000), expiresAt, refreshToken, account, familyId: successor.family_id };
}

/**
 * Trades a refresh token for a new session in the same family. The same token presented again by
 * the same browser (its device cookie) within REFRESH_REUSE_INTERVAL_MS, or at the same moment,
 * gets the same new refresh token; otherwise it means the token leaked (or a client misbehaves): the
 * whole family is revoked and the caller must sign in again.
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
  if (token.rotated_at) {
    // A second tab of the same browser (its device cookie, sent with every refresh) gets the same
    // pair within the interval; the token presented from anywhere else is a reuse, however soon.
    const same = knownDevice(ctx, client.cookies, token.user_id) ? await sameNewPair(ctx, raw, token.rotated_at) : undefined;
    if (same) return same;
    throw await refuseReuse();
  }
  if (token.expires_at <= now) throw unauthorized(messages.auth.sessionExpired);
  const grant = await ctx.db.transaction().execute(async (trx) => {
    if (!(await markRefreshTokenRotated(trx, token.id, now))) return undefined;
    return startSession(ctx, trx, token.user_id, token.family_id, undefined, successorOf(ctx, raw));
  });
  if (grant) return grant;
  // Another request traded it between our read and our update (two tabs at once): the same pair.
  const traded = await findRefreshToken(ctx.db, hashToken(raw));
  if (traded && !traded.revoked_at) {
    const same = await sameNewPair(ctx, raw, traded.rotated_at);
    if (same) return same;
  }
  throw await refuseReuse();
}
