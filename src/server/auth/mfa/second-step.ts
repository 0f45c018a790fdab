import { MFA_WRONG_CODES_ALLOWED, securityMessages } from '../../../shared/second-factor';
import type { AppContext } from '../../context';
import { hashToken } from '../../crypto/tokens';
import { AppError, invalidCredentials, invalidInput, rateLimited, unauthorized } from '../../errors';
import { isLimited, recordHit } from '../../rate-limit';
import { WRONG_SECOND_STEPS, wrongSecondStepsKey } from './methods';
import { recordSecurityEvent } from '../../security/events';
import type { Client } from '../limits';
import { verifyAssertion } from '../passkeys/service';
import type { SessionGrant } from '../sessions';
import { deviceLabel } from './device';
import { useRecoveryCode } from './recovery-codes';
import { openSignedInSession } from './sign-in-session';
import { useTotpCode } from './totp';

/** A live mfa_token: unused, not lapsed, not killed by wrong codes. */
export async function liveMfaChallenge(ctx: AppContext, token: string) {
  const challenge = await ctx.db
    .selectFrom('mfa_challenges')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', ctx.clock.now().toISOString())
    .executeTakeFirst();
  if (!challenge) throw unauthorized(securityMessages.mfaTokenExpired);
  return challenge;
}

interface MfaGrant {
  mfa_token: string;
  code?: string;
  recovery_code?: string;
  response?: unknown;
}

/**
 * The second step of a sign-in: a TOTP code, a recovery code or a passkey for the mfa_token's user.
 * A wrong one is counted; the sixth ends the mfa_token.
 */
export async function completeSecondStep(ctx: AppContext, grant: MfaGrant, client: Client): Promise<SessionGrant> {
  const challenge = await liveMfaChallenge(ctx, grant.mfa_token);
  const now = ctx.clock.now().toISOString();
  const failuresKey = wrongSecondStepsKey(challenge.user_id);
  if (await isLimited(ctx, failuresKey, WRONG_SECOND_STEPS)) throw rateLimited(securityMessages.tooManyCodes);
  let passed: boolean;
  if (grant.response) {
    passed = await verifyAssertion(ctx, grant.response, { userId: challenge.user_id, mfaChallengeId: challenge.id }, client).then(
      () => true,
      (error: unknown) => {
        if (error instanceof AppError) return false;
        throw error;
      },
    );
  } else if (grant.code) {
    passed = await useTotpCode(ctx, ctx.db, challenge.user_id, grant.code.replace(/\s+/g, ''));
  } else if (grant.recovery_code) {
    passed = await useRecoveryCode(ctx.db, challenge.user_id, grant.recovery_code, now);
  } else {
    throw invalidInput(securityMessages.codeRequired);
  }
  if (!passed) {
    await recordHit(ctx, failuresKey);
    const failures = challenge.failures + 1;
    await ctx.db
      .updateTable('mfa_challenges')
      .set({ failures, ...(failures > MFA_WRONG_CODES_ALLOWED ? { used_at: now } : {}) })
      .where('id', '=', challenge.id)
      .execute();
    await recordSecurityEvent(ctx, {
      event_type: 'sign_in_failed',
      severity: 'medium',
      user_id: challenge.user_id,
      ip: client.ip,
      details: { reason: 'second_factor', device: deviceLabel(client.userAgent) },
    });
    throw invalidCredentials(securityMessages.codeWrong);
  }
  const used = await ctx.db.updateTable('mfa_challenges').set({ used_at: now }).where('id', '=', challenge.id).where('used_at', 'is', null).executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw unauthorized(securityMessages.mfaTokenExpired);
  return openSignedInSession(ctx, challenge.user_id, 'mfa', true, client);
}
