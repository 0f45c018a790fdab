import { signInSchema } from '../../shared/auth-schemas';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { invalidCredentials, invalidToken, rateLimited } from '../errors';
import { parseInput } from '../http/validate';
import { isLimited, rateLimitKey, recordHit } from '../rate-limit';
import { recordSecurityEvent } from '../security/events';
import { refuseSuspiciousInput } from '../security/suspicious-input';
import { AUTH_LIMITS, type Client } from './limits';
import { consumeOneTimeToken } from './one-time-tokens';
import { verifyPassword } from './passwords';
import { findUserByEmail } from './repo';
import { startSession, type SessionGrant } from './sessions';

export interface PasswordGrant {
  email?: string;
  password?: string;
}

/**
 * Signs in with e-mail and password. More than five failures for an address in 15 minutes lock
 * it until the window passes, checked before the password so guessing stops paying.
 */
export async function signInWithPassword(ctx: AppContext, grant: PasswordGrant, client: Client): Promise<SessionGrant> {
  await refuseSuspiciousInput(ctx, { email: grant.email }, { message: messages.signIn.suspiciousInput, action: 'signin', identifier: grant.email, ip: client.ip });
  const { email, password } = parseInput(signInSchema, grant);
  const emailKey = rateLimitKey('signin-fail-email', email);
  const ipKey = rateLimitKey('signin-fail-ip', client.ip);
  if ((await isLimited(ctx, emailKey, AUTH_LIMITS.signInFailuresPerEmail)) || (await isLimited(ctx, ipKey, AUTH_LIMITS.signInFailuresPerIp))) {
    await recordSecurityEvent(ctx, { event_type: 'login_rate_limited', identifier: email, severity: 'medium', ip: client.ip });
    throw rateLimited(messages.signIn.rateLimited);
  }
  const user = await findUserByEmail(ctx.db, email);
  // Verified even for an unknown address, so the answer's timing does not tell the two apart.
  const passwordMatches = await verifyPassword(user?.password_hash, password);
  if (!user || !passwordMatches) {
    await recordHit(ctx, emailKey);
    await recordHit(ctx, ipKey);
    await recordSecurityEvent(ctx, {
      event_type: 'login_failure',
      identifier: email,
      details: { reason: user ? 'wrong_password' : 'unknown_email' },
      severity: 'medium',
      user_id: user?.id ?? null,
      ip: client.ip,
    });
    throw invalidCredentials(messages.signIn.invalidLoginCredentials);
  }
  return startSession(ctx, ctx.db, user.id);
}

/** Trades a single-use sign-in link (from phone verification) for a session. */
export async function signInWithLink(ctx: AppContext, rawToken: string): Promise<SessionGrant> {
  const grant = await ctx.db.transaction().execute(async (trx) => {
    const userId = await consumeOneTimeToken(trx, ctx.clock.now(), 'sign_in_link', rawToken);
    return userId ? startSession(ctx, trx, userId) : undefined;
  });
  if (!grant) throw invalidToken(messages.auth.invalidLink);
  return grant;
}
