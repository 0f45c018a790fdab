import type { AppContext } from '../context';
import { hashToken, randomToken } from '../crypto/tokens';
import { hasLiveSession } from '../auth/token-repo';
import { newId } from '../ids';

/** How long a stream ticket can be used: long enough to open the stream, too short to be worth stealing. */
const STREAM_TICKET_TTL_MS = 60_000;

/** Whose stream a ticket opens: the user and the session (refresh-token family) it was issued under. */
export interface StreamHolder {
  userId: string;
  sessionFamily: string;
}

/**
 * Issues a single-use ticket for GET /api/events?ticket=, bound to the user and their session,
 * so no access token ever sits in a URL (browsers' EventSource cannot send headers).
 */
export async function issueStreamTicket(ctx: AppContext, holder: StreamHolder): Promise<string> {
  const now = ctx.clock.now();
  const raw = randomToken();
  // Expired tickets (used ones expire within the minute too) are worth nothing; clearing them here
  // keeps the table small without a job.
  await ctx.db.deleteFrom('event_tickets').where('expires_at', '<=', now.toISOString()).execute();
  await ctx.db
    .insertInto('event_tickets')
    .values({
      id: newId(),
      token_hash: hashToken(raw),
      user_id: holder.userId,
      session_family: holder.sessionFamily,
      expires_at: new Date(now.getTime() + STREAM_TICKET_TTL_MS).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return raw;
}

/**
 * Uses a ticket up: its holder while the ticket is unused, unexpired and its session still live;
 * undefined otherwise (a second use, however close, finds it used).
 */
export async function redeemStreamTicket(ctx: AppContext, raw: string): Promise<StreamHolder | undefined> {
  const now = ctx.clock.now().toISOString();
  const tokenHash = hashToken(raw);
  const used = await ctx.db
    .updateTable('event_tickets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return undefined;
  const ticket = await ctx.db.selectFrom('event_tickets').select(['user_id', 'session_family']).where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!ticket || !(await hasLiveSession(ctx.db, ticket.user_id, ticket.session_family))) return undefined;
  return { userId: ticket.user_id, sessionFamily: ticket.session_family };
}
