import { randomToken, hashToken } from '../../crypto/tokens';
import type { AppContext } from '../../context';
import { newId } from '../../ids';
import { recordSecurityEvent } from '../../security/events';
import { SECOND_FACTOR_TTL_MINUTES, type MfaRequired, type SignInMethod } from '../../../shared/second-factor';
import type { Client } from '../limits';
import { startSession, type SessionGrant } from '../sessions';
import { deviceLabel } from './device';
import { secondFactorsOf } from './methods';
import { isNewDevice, newDeviceMail } from './security-log';

/** What a sign-in answers: a session, or the second step it still needs. */
export type SignInOutcome = SessionGrant | MfaRequired;

export const needsSecondFactor = (outcome: SignInOutcome): outcome is MfaRequired => 'mfa_required' in outcome;

/**
 * A new session for a completed sign-in, logged in the user's security log; a sign-in from a device
 * the account has not been signed in from before sends an e-mail.
 */
export async function openSignedInSession(ctx: AppContext, userId: string, method: SignInMethod, mfa: boolean, client: Client): Promise<SessionGrant> {
  const device = deviceLabel(client.userAgent);
  const newDevice = await isNewDevice(ctx, userId, device);
  const grant = await startSession(ctx, ctx.db, userId, undefined, { method, mfa, device });
  await recordSecurityEvent(ctx, {
    event_type: 'sign_in',
    severity: 'low',
    user_id: userId,
    ip: client.ip,
    details: { method: method === 'recovery' ? 'link' : method, device },
  });
  // Only to an address its owner confirmed: an unconfirmed one may be a typo, or someone else's.
  if (newDevice && grant.account.email_verified_at) {
    await ctx.mail.send(newDeviceMail(grant.account.email, device, ctx.clock.now(), `${ctx.config.publicUrl}/settings`));
  }
  return grant;
}

/**
 * After a first factor (password, texted link, recovery link): a session when the user has no
 * second factor, else an mfa_token for POST /api/auth/token {grant_type: "mfa"} (5 minutes).
 */
export async function afterFirstFactor(ctx: AppContext, userId: string, method: SignInMethod, client: Client): Promise<SignInOutcome> {
  const methods = await secondFactorsOf(ctx.db, userId);
  if (methods.length === 0) return openSignedInSession(ctx, userId, method, false, client);
  const token = randomToken();
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('mfa_challenges')
    .values({
      id: newId(),
      user_id: userId,
      token_hash: hashToken(token),
      method,
      failures: 0,
      expires_at: new Date(now.getTime() + SECOND_FACTOR_TTL_MINUTES * 60_000).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    })
    .execute();
  return { mfa_required: true, mfa_token: token, methods };
}
