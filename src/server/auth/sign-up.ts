import type { z } from 'zod';
import { reminderTimezoneFor, signUpSchema, type signUpRequestSchema } from '../../shared/auth-schemas';
import { TRIAL_DAYS } from '../../shared/limits';
import { messages, titled } from '../../shared/messages';
import type { Clock } from '../clock';
import type { AppContext } from '../context';
import { newKeySalt } from '../crypto/encryption';
import type { Db } from '../db/database';
import { conflict, rateLimited } from '../errors';
import { parseInput } from '../http/validate';
import { newId } from '../ids';
import { hit, rateLimitKey } from '../rate-limit';
import { refuseSuspiciousInput } from '../security/suspicious-input';
import { enqueueSms } from '../sms/outbound';
import { smsTexts } from '../sms/texts';
import { AUTH_LIMITS, type Client } from './limits';
import { issueOneTimeToken } from './one-time-tokens';
import { hashPassword } from './passwords';
import { deleteStoredFiles, removePendingSignUpsHolding } from './pending-sign-ups';
import { emailExists, insertAccount, isUniqueViolation, phoneExists } from './repo';

export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

export interface NewAccount {
  email: string;
  /** E.164 (+1 and ten digits). */
  phone: string;
  passwordHash: string;
  timezone: string;
  phoneVerified?: boolean;
  /** Defaults to the end of a fresh 10-day trial. */
  trialEnd?: Date;
  isAdmin?: boolean;
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

async function enforceSignUpLimits(ctx: AppContext, email: string, phone: string, client: Client): Promise<void> {
  const allowed =
    (await hit(ctx, rateLimitKey('signup-ip', client.ip), AUTH_LIMITS.signUpsPerIp)) &&
    (await hit(ctx, rateLimitKey('signup-email', email), AUTH_LIMITS.signUpsPerEmail)) &&
    (await hit(ctx, rateLimitKey('signup-phone', phone), AUTH_LIMITS.signUpsPerPhone));
  if (!allowed) throw rateLimited(titled(messages.signUp.tooManyAttemptsTitle, messages.signUp.tooManyAttempts));
}

/**
 * Creates an account on a 10-day trial with an unverified phone, and queues the text that asks
 * for YES. Returns the token the verification page polls with.
 */
export async function signUp(ctx: AppContext, request: SignUpRequest, client: Client): Promise<{ userId: string; verificationToken: string }> {
  await refuseSuspiciousInput(
    ctx,
    { email: request.email, phoneNumber: request.phoneNumber, timezone: request.timezone },
    { message: titled(messages.signUp.suspiciousInputTitle, messages.signUp.suspiciousInput), action: 'signup', identifier: request.email, ip: client.ip },
  );
  const values = parseInput(signUpSchema, request);
  await enforceSignUpLimits(ctx, values.email, values.phoneNumber, client);
  const passwordHash = await hashPassword(values.password);
  try {
    const { account, replacedFiles } = await ctx.db.transaction().execute(async (trx) => {
      // A pending sign-up holds neither the number nor the address: the newest sign-up takes over.
      const replacedFiles = await removePendingSignUpsHolding(trx, { email: values.email, phone: values.phoneNumber });
      await refuseTakenIdentity(trx, values.email, values.phoneNumber);
      const userId = await createAccount(trx, ctx.clock, { email: values.email, phone: values.phoneNumber, passwordHash, timezone: values.timezone });
      const verificationToken = await issueOneTimeToken(trx, ctx.clock.now(), userId, 'phone_verification');
      await enqueueSms(
        { ...ctx, db: trx },
        { userId, to: values.phoneNumber, body: smsTexts.verification(), kind: 'verification', dedupeKey: `verification:${userId}` },
      );
      return { account: { userId, verificationToken }, replacedFiles };
    });
    await deleteStoredFiles(ctx, replacedFiles);
    // Queued inside the transaction, where another connection could not see it yet: send it now.
    ctx.outbox.kick();
    return account;
  } catch (error) {
    // Two sign-ups raced past the check: answer the loser as if it had come second.
    if (isUniqueViolation(error)) await refuseTakenIdentity(ctx.db, values.email, values.phoneNumber);
    throw error;
  }
}
