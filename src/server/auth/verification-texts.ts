import { sql } from 'kysely';
import { messages } from '../../shared/messages';
import { formatUsPhone } from '../../shared/site';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { conflict, rateLimited } from '../errors';
import { hit, isLimited, rateLimitKey, recordHit, type RateLimit } from '../rate-limit';
import { enqueueSms } from '../sms/outbound';
import { accountLabel, smsTexts } from '../sms/texts';
import type { Client } from './limits';
import { PENDING_SIGN_UP_MS } from './pending-sign-ups';
import { findPhoneHolder } from './phone-claims';
import { OUTBOUND_SENDER } from '../jobs/wakeups';

const DAY_MS = 24 * 60 * 60_000;
const HOUR_MS = 60 * 60_000;

/**
 * The texts we pay for on a stranger's say-so. Past a number's allowance the sign-up still
 * succeeds without a text (so nobody can lock an owner out by signing up with their number, and the
 * owner can still reply YES to an earlier text); past a client address's, the sign-up is refused.
 */
export const VERIFICATION_TEXT_LIMITS = {
  perPhone: { limit: 3, windowMs: DAY_MS },
  perIp: { limit: 10, windowMs: DAY_MS },
} satisfies Record<string, RateLimit>;

export const verificationIpKey = (ip: string) => rateLimitKey('verification-ip', ip);

/** Takes one of the number's daily verification texts; false when they are used up. */
export function takePhoneAllowance(ctx: AppContext, phone: string): Promise<boolean> {
  return hit(ctx, rateLimitKey('verification-phone', phone), VERIFICATION_TEXT_LIMITS.perPhone);
}

/**
 * When the next verification text may go under the hourly ceiling shared by all instances: now, or
 * the start of the first clock hour with room. Hours fill in order, so only the latest one queued
 * needs counting. Two sign-ups at once on PostgreSQL may both take an hour's last place: the
 * ceiling bounds cost, and one text over it is harmless. A backlog is looked at a day ahead at most:
 * a text a day late is as good as none, and the ceiling need not hold beyond that.
 */
export async function verificationSendTime(db: Db, now: Date, perHour: number): Promise<Date> {
  // `kind` written in, so SQLite takes the partial index of verification texts (migration 0600).
  const verificationTexts = (from: number, to: number) =>
    db
      .selectFrom('sms_messages')
      .where('kind', '=', sql.lit('verification'))
      .where('send_after', '>=', new Date(from).toISOString())
      .where('send_after', '<', new Date(to).toISOString());
  const thisHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const latest = await verificationTexts(thisHour, now.getTime() + DAY_MS)
    .select((eb) => eb.fn.max('send_after').as('at'))
    .executeTakeFirst();
  const hour = latest?.at ? Math.floor(Date.parse(String(latest.at)) / HOUR_MS) * HOUR_MS : thisHour;
  const queued = await verificationTexts(hour, hour + HOUR_MS)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirst();
  if (Number(queued?.count ?? 0) >= perHour) return new Date(hour + HOUR_MS);
  return new Date(Math.max(now.getTime(), hour));
}

/**
 * Queues the text that asks the phone's owner to confirm this account; it lapses with the sign-up.
 * The sign-up's own text is queued once however often it is retried; one sent again on request is not.
 */
export async function queueVerificationText(ctx: AppContext, signUp: { userId: string; phone: string; email: string; dueAt: Date; again?: boolean }): Promise<void> {
  await enqueueSms(ctx, {
    userId: signUp.userId,
    to: signUp.phone,
    body: smsTexts.verification(accountLabel(signUp.email)),
    kind: 'verification',
    dedupeKey: signUp.again ? undefined : `verification:${signUp.userId}`,
    dueAt: signUp.dueAt,
    expiresAt: new Date(signUp.dueAt.getTime() + PENDING_SIGN_UP_MS),
  });
}

/** Verification texts the hourly ceiling holds back right now (the /metrics gauge). */
export async function countHeldVerificationTexts(ctx: AppContext): Promise<number> {
  const row = await ctx.db
    .selectFrom('sms_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('kind', '=', sql.lit('verification'))
    .where('send_after', '>', ctx.clock.now().toISOString())
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The daily allowances bound the texts we pay for: the simulator's (development) cost nothing. */
const paidTexts = (ctx: AppContext) => !ctx.simulators.sms;

/**
 * "Send the text again" from the journal's "Verify your phone": the sign-up's verification text, to
 * its phone, once more. It counts against the same daily allowances as a sign-up's text (the number's
 * and the client address's), and keeps the sign-up from lapsing before the text can be answered. A
 * number that texted STOP gets no text from us until it texts START, and is told so.
 */
export async function resendVerificationText(ctx: AppContext, userId: string, client: Client): Promise<void> {
  const profile = await ctx.db
    .selectFrom('profiles')
    .innerJoin('users', 'users.id', 'profiles.id')
    .select(['profiles.phone_number', 'profiles.phone_verified', 'profiles.is_opted_out', 'profiles.verification_expires_at', 'users.email'])
    .where('profiles.id', '=', userId)
    .executeTakeFirst();
  const copy = messages.accountState;
  if (!profile || profile.phone_verified === 1) throw conflict(copy.alreadyVerified);
  const phone = profile.phone_number;
  const holder = await findPhoneHolder(ctx.db, phone);
  if (holder && holder.id !== userId) throw conflict(copy.verifiedElsewhere);
  // STOP marks every account on the number (sms/opt-out.ts), as does the carrier's refusal of a text to it.
  if (profile.is_opted_out === 1) throw conflict(copy.textsOff(formatUsPhone(ctx.config.journalNumber)));
  if (paidTexts(ctx)) {
    if (await isLimited(ctx, verificationIpKey(client.ip), VERIFICATION_TEXT_LIMITS.perIp)) throw rateLimited(copy.resendLimited);
    if (!(await takePhoneAllowance(ctx, phone))) throw rateLimited(copy.resendLimited);
  }
  const now = ctx.clock.now();
  const dueAt = await verificationSendTime(ctx.db, now, ctx.config.verificationTextsPerHour);
  const lapsesAt = new Date(dueAt.getTime() + PENDING_SIGN_UP_MS).toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    // The sign-up waits for the text it was just sent (held back by the hourly ceiling, it waits longer).
    await trx
      .updateTable('profiles')
      .set({ verification_expires_at: lapsesAt })
      .where('id', '=', userId)
      .where('phone_verified', '=', 0)
      .where((eb) => eb.or([eb('verification_expires_at', 'is', null), eb('verification_expires_at', '<', lapsesAt)]))
      .execute();
    await queueVerificationText({ ...ctx, db: trx }, { userId, phone, email: profile.email, dueAt, again: true });
  });
  if (paidTexts(ctx)) await recordHit(ctx, verificationIpKey(client.ip));
  ctx.jobs.wake(OUTBOUND_SENDER);
}
