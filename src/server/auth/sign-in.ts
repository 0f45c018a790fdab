import { signInSchema } from '../../shared/auth-schemas';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { invalidCredentials, invalidToken, rateLimited } from '../errors';
import { parseInput } from '../http/validate';
import { recordSecurityEvent } from '../security/events';
import { refuseSuspiciousInput } from '../security/suspicious-input';
import { knownDevice } from './device-cookies';
import type { Client } from './limits';
import { consumeOneTimeToken } from './one-time-tokens';
import { verifyPassword } from './passwords';
import { findUserByEmail } from './repo';
import { afterFirstFactor, type SignInOutcome } from './mfa/sign-in-session';
import { clearSignInLimits, forgiveSignInAttempt, reserveSignInAttempt } from './sign-in-limits';

interface PasswordGrant {
  email?: string;
  password?: string;
}

/**
 * Signs in with e-mail and password. The attempt is counted before the password is checked, so
 * guessing stops paying even in a burst (see sign-in-limits.ts for the limits).
 */
export async function signInWithPassword(ctx: AppContext, grant: PasswordGrant, client: Client): Promise<SignInOutcome> {
  await refuseSuspiciousInput(ctx, { email: grant.email }, { message: messages.signIn.suspiciousInput, action: 'signin', identifier: grant.email, ip: client.ip });
  const { email, password } = parseInput(signInSchema, grant);
  const user = await findUserByEmail(ctx.db, email);
  const device = user ? knownDevice(ctx, client.cookies, user.id) : null;
  const reservation = await reserveSignInAttempt(ctx, email, user?.id, client, device);
  if (!reservation) {
    await recordSecurityEvent(ctx, { event_type: 'login_rate_limited', identifier: email, severity: 'medium', user_id: user?.id ?? null, ip: client.ip });
    throw rateLimited(messages.signIn.rateLimited);
  }
  // Verified even for an unknown address, so the answer's timing does not tell the two apart.
  const passwordMatches = await verifyPassword(user?.password_hash, password);
  if (!user || !passwordMatches) {
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
  await forgiveSignInAttempt(ctx, user.id, reservation, client, device);
  return afterFirstFactor(ctx, user.id, 'password', client);
}

/** Trades a single-use sign-in link (from phone verification) for a session (or its second step). */
export async function signInWithLink(ctx: AppContext, rawToken: string, client: Client): Promise<SignInOutcome> {
  const userId = await ctx.db.transaction().execute((trx) => consumeOneTimeToken(trx, ctx.clock.now(), 'sign_in_link', rawToken));
  if (!userId) throw invalidToken(messages.auth.invalidLink);
  await clearSignInLimits(ctx, userId);
  return afterFirstFactor(ctx, userId, 'link', client);
}
