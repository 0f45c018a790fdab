import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../shared/messages';
import type { Db } from '../db/database';
import type { User } from '../db/tables';
import { unauthorized } from '../errors';
import { type AccessClaims, verifyAccessToken } from './access-token';

export interface RequestUser {
  id: string;
  email: string;
  isAdmin: boolean;
  /** The refresh-token family this access token was issued under (for local sign-out). */
  sessionFamily: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user?: RequestUser;
  }
}

/**
 * An unrevoked refresh token of the session's family, for `exists`: the session is still live.
 * Signing out (or a password change) revokes the family, and that ends the access tokens issued
 * under it too.
 */
export const liveRefreshToken = (db: Db, sessionFamily: string, userId: string) =>
  db
    .selectFrom('refresh_tokens')
    .select('refresh_tokens.id')
    .where('refresh_tokens.family_id', '=', sessionFamily)
    .where('refresh_tokens.user_id', '=', userId)
    .where('refresh_tokens.revoked_at', 'is', null);

const liveSessionUser = (db: Db, userId: string, family: string): Promise<Pick<User, 'id' | 'email' | 'is_admin'> | undefined> =>
  db
    .selectFrom('users')
    .select(['id', 'email', 'is_admin'])
    .where('id', '=', userId)
    .where((eb) => eb.exists(liveRefreshToken(db, family, userId)))
    .executeTakeFirst();

/**
 * preHandler that requires a valid bearer token for an existing user and sets `request.user`.
 * Register it on a whole plugin (`app.addHook('preHandler', requireUser)`) so no route forgets it.
 */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const claims = await bearerClaims(request);
  const user = await liveSessionUser(request.server.ctx.db, claims.userId, claims.sessionFamily);
  signedIn(request, user, claims.sessionFamily);
}

/**
 * The claims of the request's bearer token, verified (401 without one, or when it is not valid).
 * The session behind them must still be checked: requireUser does, with the user's row.
 */
export async function bearerClaims(request: FastifyRequest): Promise<AccessClaims> {
  const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
  if (!match) throw unauthorized(messages.auth.notSignedIn);
  const ctx = request.server.ctx;
  const claims = await verifyAccessToken(ctx.keys.accessToken, match[1]!, ctx.clock.now());
  if (!claims) throw unauthorized(messages.auth.sessionExpired);
  return claims;
}

/** Sets `request.user` from the user a live session belongs to (401 when there was none). */
export function signedIn(request: FastifyRequest, user: Pick<User, 'id' | 'email' | 'is_admin'> | undefined, sessionFamily: string): RequestUser {
  if (!user) throw unauthorized(messages.auth.sessionExpired);
  request.user = { id: user.id, email: user.email, isAdmin: user.is_admin === 1, sessionFamily };
  return request.user;
}

/** The signed-in user; only call behind requireUser. */
export function currentUser(request: FastifyRequest): RequestUser {
  if (!request.user) throw unauthorized(messages.auth.notSignedIn);
  return request.user;
}
