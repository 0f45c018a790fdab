import { sql } from 'kysely';
import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { hit, rateLimitKey, type RateLimit } from '../rate-limit';
import { enqueueSms } from '../sms/outbound';
import { accountLabel, smsTexts } from '../sms/texts';
import { PENDING_SIGN_UP_MS } from './pending-sign-ups';

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

/** Queues the text that asks the phone's owner to confirm this account; it lapses with the sign-up. */
export async function queueVerificationText(ctx: AppContext, signUp: { userId: string; phone: string; email: string; dueAt: Date }): Promise<void> {
  await enqueueSms(ctx, {
    userId: signUp.userId,
    to: signUp.phone,
    body: smsTexts.verification(accountLabel(signUp.email)),
    kind: 'verification',
    dedupeKey: `verification:${signUp.userId}`,
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
