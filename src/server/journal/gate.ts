import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../shared/messages';
import { bearerClaims, liveRefreshToken, signedIn } from '../auth/authenticate';
import { ACCESS_COLUMNS, accessStatusOf, type AccessRow } from '../billing/access';
import type { Db } from '../db/database';
import type { User } from '../db/tables';
import { AppError } from '../errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The journal's revision, read as the request came through the gate (0: nothing written yet). */
    journalRevision?: number;
  }
}

type GateRow = Pick<User, 'id' | 'email' | 'is_admin'> & { [K in keyof AccessRow]: AccessRow[K] | null } & { revision: number | string | null };

// The session check, the subscriber row and the journal's revision in one statement: three
// statements a request were most of the database time of opening the journal.
const journalGate = (db: Db, userId: string, family: string): Promise<GateRow | undefined> =>
  db
    .selectFrom('users')
    .leftJoin('subscribers', 'subscribers.user_id', 'users.id')
    .select(['users.id', 'users.email', 'users.is_admin'])
    .select(ACCESS_COLUMNS.map((column) => `subscribers.${column}` as const))
    .select((eb) => eb.selectFrom('journal_revisions').select('revision').whereRef('journal_revisions.user_id', '=', 'users.id').as('revision'))
    .where('users.id', '=', userId)
    .where((eb) => eb.exists(liveRefreshToken(db, family, userId)))
    .executeTakeFirst();

/**
 * onRequest hook for the journal: a live session (as requireUser: 401) with a running trial or
 * subscription (402 otherwise). Sets `request.user` and `request.journalRevision`.
 */
export async function requireJournalAccess(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const claims = await bearerClaims(request);
  const ctx = request.server.ctx;
  const row = await journalGate(ctx.db, claims.userId, claims.sessionFamily);
  const user = signedIn(request, row, claims.sessionFamily);
  const subscriber = row!.user_id === null ? undefined : (row as AccessRow);
  if (!(await accessStatusOf(ctx, user.id, subscriber)).hasAccess) throw new AppError('ACCESS_REQUIRED', messages.entries.accessRequired);
  request.journalRevision = Number(row!.revision ?? 0);
}
