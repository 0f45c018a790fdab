import type { FastifyReply, FastifyRequest } from 'fastify';
import { CompiledQuery } from 'kysely';
import { messages } from '../../shared/messages';
import { bearerClaims, liveRefreshToken, signedIn } from '../auth/authenticate';
import { ACCESS_COLUMNS, accessStatusOf, type AccessRow } from '../billing/access';
import { prepareOnPostgres, type Db } from '../db/database';
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
const journalGateQuery = (db: Db, userId: string, family: string) =>
  db
    .selectFrom('users')
    .leftJoin('subscribers', 'subscribers.user_id', 'users.id')
    .select(['users.id', 'users.email', 'users.is_admin'])
    .select(ACCESS_COLUMNS.map((column) => `subscribers.${column}` as const))
    .select((eb) => eb.selectFrom('journal_revisions').select('revision').whereRef('journal_revisions.user_id', '=', 'users.id').as('revision'))
    .where('users.id', '=', userId)
    .where((eb) => eb.exists(liveRefreshToken(db, family, userId)));

// Stand-ins for the two values while the statement is compiled, replaced by the request's own.
const USER_ID = Symbol('user id');
const FAMILY = Symbol('session family');

/**
 * The gate's statement compiled once per database (building it with Kysely on every request cost
 * about as much CPU as the rest of the journal's first page), and on PostgreSQL planned once per
 * connection. Its values are only the user's id and session family, bound as parameters each time.
 */
const compiledGates = new WeakMap<Db, { sql: string; slots: ReadonlyArray<unknown> }>();

function journalGate(db: Db, userId: string, family: string): Promise<GateRow | undefined> {
  let gate = compiledGates.get(db);
  if (!gate) {
    const compiled = journalGateQuery(db, USER_ID as unknown as string, FAMILY as unknown as string).compile();
    gate = { sql: compiled.sql, slots: compiled.parameters };
    compiledGates.set(db, gate);
    prepareOnPostgres(gate.sql, 'jotline_journal_gate');
  }
  const parameters = gate.slots.map((slot) => (slot === USER_ID ? userId : slot === FAMILY ? family : slot));
  return db.executeQuery<GateRow>(CompiledQuery.raw(gate.sql, parameters)).then((result) => result.rows[0]);
}

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
