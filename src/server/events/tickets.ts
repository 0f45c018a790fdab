import { createHmac } from 'node:crypto';
import type { AppContext } from '../context';
import { hashToken, randomToken, safeEqual } from '../crypto/tokens';
import { cookieValue, privateCookie } from '../http/cookies';
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

/**
 * The cookie that lets a browser's EventSource reconnect by itself: its automatic retry asks for
 * the same address again, with a ticket already used, and sends this cookie (HttpOnly,
 * SameSite=Strict, sent to /api/events only). Signed for the user and the session; a stream
 * opened with it ends with the session like any other.
 */
export const STREAM_COOKIE = 'jotline_stream';
const STREAM_COOKIE_TTL_MS = 12 * 60 * 60 * 1000;

const streamSignature = (ctx: AppContext, holder: StreamHolder, expires: number) =>
  createHmac('sha256', ctx.keys.links).update(`stream-cookie:${holder.userId}:${holder.sessionFamily}:${expires}`).digest('base64url');

/** The Set-Cookie header given with a ticket. */
export function streamCookieFor(ctx: AppContext, holder: StreamHolder): string {
  const expires = ctx.clock.now().getTime() + STREAM_COOKIE_TTL_MS;
  const value = `${holder.userId}.${holder.sessionFamily}.${expires}.${streamSignature(ctx, holder, expires)}`;
  return privateCookie(STREAM_COOKIE, value, { path: '/api/events', maxAgeSeconds: STREAM_COOKIE_TTL_MS / 1000, publicUrl: ctx.config.publicUrl });
}

/** The stream cookie's holder while it is unexpired, well signed and its session still live; undefined otherwise. */
export async function holderOfStreamCookie(ctx: AppContext, cookieHeader: string | undefined): Promise<StreamHolder | undefined> {
  const [userId, sessionFamily, expiresText, signature] = (cookieValue(cookieHeader, STREAM_COOKIE) ?? '').split('.');
  const expires = Number(expiresText);
  if (!userId || !sessionFamily || !signature || !Number.isSafeInteger(expires) || expires <= ctx.clock.now().getTime()) return undefined;
  const holder = { userId, sessionFamily };
  if (!safeEqual(signature, streamSignature(ctx, holder, expires))) return undefined;
  return (await hasLiveSession(ctx.db, userId, sessionFamily)) ? holder : undefined;
}
