import { generateSecret, generateURI, verify } from 'otplib';
import { securityMessages, type TotpSetup } from '../../../shared/second-factor';
import type { AppContext } from '../../context';
import { SECRETS_SUBJECT } from '../../crypto/encryption';
import type { Db } from '../../db/database';
import { conflict, invalidCredentials, invalidInput, rateLimited } from '../../errors';
import { recordSecurityEvent } from '../../security/events';
import type { RequestUser } from '../authenticate';
import { BRAND } from '../../sms/texts';
import type { Client } from '../limits';
import { deleteRecoveryCodes, replaceRecoveryCodes } from './recovery-codes';
import { markSessionMfa } from './session-records';
import { hasSecondFactor, WRONG_SECOND_STEPS, wrongSecondStepsKey } from './methods';
import { isLimited, recordHit } from '../../rate-limit';
import { deviceLabel } from './device';

/** RFC 6238 as every authenticator app reads it: 30-second steps, 6 digits, SHA-1. */
const PERIOD = 30;

const encryptSecret = (ctx: AppContext, secret: string) => ctx.cipher.encrypt(SECRETS_SUBJECT.id, SECRETS_SUBJECT.salt, secret);
const decryptSecret = (ctx: AppContext, encrypted: string) => ctx.cipher.decryptStrict(SECRETS_SUBJECT.id, SECRETS_SUBJECT.salt, encrypted);

/**
 * The 30-second step `code` is right for (one step either side of now allowed), or null. A step at
 * or before `afterStep` is refused: each code is accepted once.
 */
async function matchingStep(secret: string, code: string, now: Date, afterStep: number | null): Promise<number | null> {
  const epoch = Math.floor(now.getTime() / 1000);
  const result = await verify({ secret, token: code, epoch, epochTolerance: PERIOD, period: PERIOD, digits: 6, algorithm: 'sha1' });
  if (!result.valid) return null;
  const step = Math.floor(epoch / PERIOD) + result.delta;
  return afterStep !== null && step <= afterStep ? null : step;
}

/** Starts (or starts again) setting up TOTP: a new secret, unconfirmed until a code from it is sent. */
export async function beginTotp(ctx: AppContext, user: RequestUser): Promise<TotpSetup> {
  const existing = await ctx.db.selectFrom('totp_factors').select('confirmed_at').where('user_id', '=', user.id).executeTakeFirst();
  if (existing?.confirmed_at) throw conflict(securityMessages.totpAlreadyOn);
  const secret = generateSecret();
  const now = ctx.clock.now().toISOString();
  await ctx.db.deleteFrom('totp_factors').where('user_id', '=', user.id).execute();
  await ctx.db.insertInto('totp_factors').values({ user_id: user.id, secret: encryptSecret(ctx, secret), confirmed_at: null, last_step: null, created_at: now }).execute();
  return { secret, otpauth_url: generateURI({ issuer: BRAND, label: user.email, secret, period: PERIOD, digits: 6, algorithm: 'sha1' }) };
}

/**
 * Turns TOTP on with a code from the new secret; answers ten single-use recovery codes. When this is
 * the user's first second factor, the session that set it up has just proved it and counts as one.
 */
export async function confirmTotp(ctx: AppContext, user: RequestUser, code: string, client: Client): Promise<string[]> {
  const row = await ctx.db.selectFrom('totp_factors').selectAll().where('user_id', '=', user.id).executeTakeFirst();
  if (row?.confirmed_at) throw conflict(securityMessages.totpAlreadyOn);
  if (!row) throw invalidInput(securityMessages.totpNotStarted);
  const step = await matchingStep(decryptSecret(ctx, row.secret), code, ctx.clock.now(), null);
  if (step === null) throw invalidCredentials(securityMessages.codeWrong);
  const firstFactor = !(await hasSecondFactor(ctx.db, user.id));
  const now = ctx.clock.now().toISOString();
  const codes = await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('totp_factors').set({ confirmed_at: now, last_step: step }).where('user_id', '=', user.id).where('confirmed_at', 'is', null).execute();
    if (firstFactor) await markSessionMfa(trx, user.id, user.sessionFamily);
    return replaceRecoveryCodes(trx, user.id, now);
  });
  await recordSecurityEvent(ctx, { event_type: 'mfa_on', severity: 'low', user_id: user.id, ip: client.ip, details: { device: deviceLabel(client.userAgent) } });
  return codes;
}

/** Turns TOTP off with a current code; its recovery codes go with it. */
export async function disableTotp(ctx: AppContext, user: RequestUser, code: string, client: Client): Promise<void> {
  const failures = wrongSecondStepsKey(user.id);
  if (await isLimited(ctx, failures, WRONG_SECOND_STEPS)) throw rateLimited(securityMessages.tooManyCodes);
  if (!(await useTotpCode(ctx, ctx.db, user.id, code))) {
    await recordHit(ctx, failures);
    throw invalidCredentials(securityMessages.codeWrong);
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('totp_factors').where('user_id', '=', user.id).execute();
    await deleteRecoveryCodes(trx, user.id);
  });
  await recordSecurityEvent(ctx, { event_type: 'mfa_off', severity: 'medium', user_id: user.id, ip: client.ip, details: { device: deviceLabel(client.userAgent) } });
}

/**
 * Accepts a code of the user's confirmed TOTP once: the step it matched is recorded, and only a
 * later step is accepted after it (so a code seen over a shoulder cannot be used again).
 */
export async function useTotpCode(ctx: AppContext, db: Db, userId: string, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const row = await db.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).where('confirmed_at', 'is not', null).executeTakeFirst();
  if (!row) return false;
  const step = await matchingStep(decryptSecret(ctx, row.secret), code, ctx.clock.now(), row.last_step);
  if (step === null) return false;
  let update = db.updateTable('totp_factors').set({ last_step: step }).where('user_id', '=', userId);
  update = row.last_step === null ? update.where('last_step', 'is', null) : update.where('last_step', '=', row.last_step);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
