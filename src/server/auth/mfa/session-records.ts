import type { SessionSummary, SignInMethod } from '../../../shared/second-factor';
import type { Db } from '../../db/database';

/** How a session was signed in; kept for its life, refreshes included. */
export interface SessionStanding {
  method: SignInMethod;
  /** Signed in with a passkey or a second factor. */
  mfa: boolean;
  device: string | null;
}

export const PLAIN_STANDING: SessionStanding = { method: 'password', mfa: false, device: null };

export async function insertSessionRecord(db: Db, row: { id: string; userId: string; standing: SessionStanding; now: string }): Promise<void> {
  await db
    .insertInto('auth_sessions')
    .values({
      id: row.id,
      user_id: row.userId,
      method: row.standing.method,
      mfa: row.standing.mfa ? 1 : 0,
      device: row.standing.device,
      created_at: row.now,
      last_seen_at: row.now,
      // Signing in is a proof of the person (auth/fresh-proof.ts).
      proved_at: row.now,
    })
    .execute();
}

/** A refresh: the session was seen now. */
export async function touchSessionRecord(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable('auth_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

/** When the person last proved it is them in this session (auth/fresh-proof.ts); null if never kept. */
export async function sessionProvedAt(db: Db, userId: string, id: string): Promise<string | null> {
  const row = await db.selectFrom('auth_sessions').select('proved_at').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row?.proved_at ?? null;
}

export async function markSessionProved(db: Db, userId: string, id: string, at: string): Promise<void> {
  await db.updateTable('auth_sessions').set({ proved_at: at }).where('id', '=', id).where('user_id', '=', userId).execute();
}

/** True when the session was signed in with a passkey or a second factor. */
export async function sessionHasMfa(db: Db, userId: string, id: string): Promise<boolean> {
  const row = await db.selectFrom('auth_sessions').select('mfa').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row?.mfa === 1;
}

/** The session has just proved a second factor (its owner set up their first one in it). */
export async function markSessionMfa(db: Db, userId: string, id: string): Promise<void> {
  await db.updateTable('auth_sessions').set({ mfa: 1 }).where('id', '=', id).where('user_id', '=', userId).execute();
}

/** The user's sessions still signed in (a refresh token of the family neither revoked nor expired), newest first. */
export async function listLiveSessions(db: Db, userId: string, currentId: string, now: string): Promise<SessionSummary[]> {
  const rows = await db
    .selectFrom('auth_sessions')
    .select(['id', 'created_at', 'last_seen_at', 'device'])
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('refresh_tokens')
          .select('refresh_tokens.id')
          .whereRef('refresh_tokens.family_id', '=', 'auth_sessions.id')
          .where('refresh_tokens.user_id', '=', userId)
          .where('refresh_tokens.revoked_at', 'is', null)
          .where('refresh_tokens.expires_at', '>', now),
      ),
    )
    .orderBy('last_seen_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, current: row.id === currentId }));
}
