import type { z } from 'zod';
import { reminderTimezoneFor, signUpSchema, type signUpRequestSchema } from '../../shared/auth-schemas';
import { TRIAL_DAYS } from '../../shared/limits';
import { messages, titled } from '../../shared/messages';
import type { Clock } from '../clock';
import type { AppContext } from '../context';
import { newKeySalt } from '../crypto/encryption';
import type { Db } from '../db/database';
import { isUsTextableNumber } from '../../shared/phone-us';
import { AppError, conflict, invalidInput, rateLimited } from '../errors';
import { parseInput } from '../http/validate';
import { newId } from '../ids';
import { hit, isLimited, rateLimitKey, recordHit } from '../rate-limit';
import { refuseSuspiciousInput } from '../security/suspicious-input';
import { AUTH_LIMITS, type Client } from './limits';
import { issueOneTimeToken } from './one-time-tokens';
import { hashPassword } from './passwords';
import { PENDING_SIGN_UP_MS, removePendingSignUp, replaceableSignUp } from './pending-sign-ups';
import { newClaimCode } from './phone-claims';
import { emailExists, insertAccount, isUniqueViolation, phoneExists } from './repo';
import { queueVerificationText, takePhoneAllowance, VERIFICATION_TEXT_LIMITS, verificationIpKey, verificationSendTime } from './verification-texts';
import { OUTBOUND_SENDER } from '../jobs/wakeups';

type SignUpRequest = z.infer<typeof signUpRequestSchema>;

interface NewAccount {
  email: string;
  /** E.164 (+1 and ten digits). */
  phone: string;
  passwordHash: string;
  timezone: string;
  phoneVerified?: boolean;
  /** Defaults to the end of a fresh 10-day trial. */
  trialEnd?: Date;
  isAdmin?: boolean;
  /** When an unverified account lapses (default: 10 minutes from now). */
  lapsesAt?: Date;
}

/** Writes a new account's user, profile and trial subscriber rows; returns the user id. */
export async function createAccount(db: Db, clock: Clock, account: NewAccount): Promise<string> {
  const now = clock.now();
  const at = now.toISOString();
  const id = newId();
  const trialEnd = account.trialEnd ?? new Date(now.getTime() + TRIAL_DAYS * 86_400_000);
  await insertAccount(db, {
    user: { id, email: account.email, password_hash: account.passwordHash, is_admin: account.isAdmin ? 1 : 0, created_at: at, updated_at: at },
    profile: {
      id,
      phone_number: account.phone,
      phone_verified: account.phoneVerified ? 1 : 0,
      timezone: account.timezone,
      reminder_timezone: reminderTimezoneFor(account.timezone),
      key_salt: newKeySalt(),
      sms_consent_at: at,
      next_reminder_at: null,
      // The code the phone's owner replies with when several sign-ups claim the number.
      verification_code: account.phoneVerified ? null : await newClaimCode(db, account.phone),
      verification_expires_at: account.phoneVerified ? null : (account.lapsesAt ?? new Date(now.getTime() + PENDING_SIGN_UP_MS)).toISOString(),
      created_at: at,
      updated_at: at,
    },
    subscriber: { id: newId(), user_id: id, email: account.email, is_trial: 1, trial_end: trialEnd.toISOString(), created_at: at, updated_at: at },
  });
  return id;
}

/** One account per e-mail address and per verified phone number (e-mail is reported first). */
async function refuseTakenIdentity(db: Db, email: string, phone: string): Promise<void> {
  if (await emailExists(db, email)) throw conflict(messages.signUp.alreadyRegistered);
  if (await phoneExists(db, phone)) throw conflict(messages.signUp.phoneTaken);
}

/** Only real US numbers get a text: no Canadian or Caribbean +1 codes, no premium lines (toll fraud). */
function refuseUntextableNumber(phone: string): void {
  if (!isUsTextableNumber(phone)) throw invalidInput(titled(messages.signUp.invalidPhoneTitle, messages.signUp.invalidPhone), { field: 'phoneNumber' });
}

/** The daily allowances bound the texts we pay for: the simulator's (development) cost nothing. */
const paidTexts = (ctx: AppContext) => !ctx.simulators.sms;

const tooManyAttempts = () => rateLimited(titled(messages.signUp.tooManyAttemptsTitle, messages.signUp.tooManyAttempts));
const revealingKey = (client: Client) => rateLimitKey('signup-revealing-ip', client.ip);

/**
 * Counts the sign-up against its limits. An address that has used up its answers revealing an
 * existing account gets 429 for every sign-up, so the refusal tells nothing either.
 */
async function enforceSignUpLimits(ctx: AppContext, email: string, phone: string, client: Client): Promise<void> {
  const allowed =
    (await hit(ctx, rateLimitKey('signup-ip', client.ip), AUTH_LIMITS.signUpsPerIp)) &&
    (await hit(ctx, rateLimitKey('signup-email', email), AUTH_LIMITS.signUpsPerEmail)) &&
    (await hit(ctx, rateLimitKey('signup-phone', phone), AUTH_LIMITS.signUpsPerPhone)) &&
    !(await isLimited(ctx, revealingKey(client), AUTH_LIMITS.signUpsRevealingPerIp)) &&
    !(paidTexts(ctx) && (await isLimited(ctx, verificationIpKey(client.ip), VERIFICATION_TEXT_LIMITS.perIp)));
  if (!allowed) throw tooManyAttempts();
}

/**
 * Creates an account on a 10-day trial with an unverified phone, and queues the text that asks the
 * phone's owner to confirm it. The sign-up only claims the number (auth/phone-claims.ts): it never
 * removes another's, and takes the place of a pending one with its e-mail address only when that
 * one lapsed or is the same person's (the same password). Returns the token the verification page
 * polls with.
 */
export async function signUp(ctx: AppContext, request: SignUpRequest, client: Client): Promise<{ userId: string; verificationToken: string }> {
  await refuseSuspiciousInput(
    ctx,
    { email: request.email, phoneNumber: request.phoneNumber, timezone: request.timezone },
    { message: titled(messages.signUp.suspiciousInputTitle, messages.signUp.suspiciousInput), action: 'signup', identifier: request.email, ip: client.ip },
  );
  const values = parseInput(signUpSchema, request);
  refuseUntextableNumber(values.phoneNumber);
  await enforceSignUpLimits(ctx, values.email, values.phoneNumber, client);
  try {
    return await createPendingAccount(ctx, values, client);
  } catch (error) {
    // An answer that an account exists is counted against the address, exactly under bursts too.
    const reveals = error instanceof AppError && error.code === 'CONFLICT';
    if (reveals && !(await hit(ctx, revealingKey(client), AUTH_LIMITS.signUpsRevealingPerIp))) throw tooManyAttempts();
    throw error;
  }
}

/** The account, its verification token and its verification text, or a conflict when the e-mail or phone is taken. */
async function createPendingAccount(ctx: AppContext, values: z.infer<typeof signUpSchema>, client: Client): Promise<{ userId: string; verificationToken: string }> {
  const passwordHash = await hashPassword(values.password);
  const now = ctx.clock.now();
  const replaced = await replaceableSignUp(ctx.db, now, values.email, values.password);
  const texted = !paidTexts(ctx) || (await takePhoneAllowance(ctx, values.phoneNumber));
  try {
    const account = await ctx.db.transaction().execute(async (trx) => {
      if (replaced) await removePendingSignUp(trx, replaced);
      await refuseTakenIdentity(trx, values.email, values.phoneNumber);
      const dueAt = await verificationSendTime(trx, now, ctx.config.verificationTextsPerHour);
      const lapsesAt = new Date(dueAt.getTime() + PENDING_SIGN_UP_MS);
      const userId = await createAccount(trx, ctx.clock, { email: values.email, phone: values.phoneNumber, passwordHash, timezone: values.timezone, lapsesAt });
      const verificationToken = await issueOneTimeToken(trx, now, userId, 'phone_verification');
      if (texted) await queueVerificationText({ ...ctx, db: trx }, { userId, phone: values.phoneNumber, email: values.email, dueAt });
      return { userId, verificationToken };
    });
    if (texted && paidTexts(ctx)) await recordHit(ctx, verificationIpKey(client.ip));
    // Queued inside the transaction, where another connection could not see it yet: send it now.
    ctx.jobs.wake(OUTBOUND_SENDER);
    return account;
  } catch (error) {
    // Two sign-ups raced past the check: answer the loser as if it had come second.
    if (isUniqueViolation(error)) await refuseTakenIdentity(ctx.db, values.email, values.phoneNumber);
    throw error;
  }
}
