import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../shared/messages';
import type { User } from '../db/tables';
import { preparedQuery } from '../db/prepared';
import { unauthorized } from '../errors';
import { verifyAccessToken } from './access-token';

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

// The session must still be live: signing out (or a password change) revokes its refresh-token
// family, and that ends the access tokens issued under it too. Nearly every request asks this.
const liveSessionUser = preparedQuery<{ userId: string; family: string }, Pick<User, 'id' | 'email' | 'is_admin'>>((db, param) =>
  db
    .selectFrom('users')
    .select(['id', 'email', 'is_admin'])
    .where('id', '=', param('userId'))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('refresh_tokens')
          .select('refresh_tokens.id')
          .where('refresh_tokens.family_id', '=', param('family'))
          .where('refresh_tokens.user_id', '=', param('userId'))
          .where('refresh_tokens.revoked_at', 'is', null),
      ),
    ),
);

/**
 * preHandler that requires a valid bearer token for an existing user and sets `request.user`.
 * Register it on a whole plugin (`app.addHook('preHandler', requireUser)`) so no route forgets it.
 */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match) throw unauthorized(messages.auth.notSignedIn);
  const ctx = request.server.ctx;
  const claims = await verifyAccessToken(ctx.keys.accessToken, match[1]!, ctx.clock.now());
  if (!claims) throw unauthorized(messages.auth.sessionExpired);
  const [user] = await liveSessionUser(ctx.db, { userId: claims.userId, family: claims.sessionFamily });
  if (!user) throw unauthorized(messages.auth.sessionExpired);
  request.user = { id: user.id, email: user.email, isAdmin: user.is_admin === 1, sessionFamily: claims.sessionFamily };
}

/** The signed-in user; only call behind requireUser. */
export function currentUser(request: FastifyRequest): RequestUser {
  if (!request.user) throw unauthorized(messages.auth.notSignedIn);
  return request.user;
}
