import type { z } from 'zod';
import type { recoverSchema, verifyRecoverySchema } from '../../shared/auth-schemas';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { invalidToken, rateLimited } from '../errors';
import { hit, rateLimitKey } from '../rate-limit';
import { AUTH_LIMITS, type Client } from './limits';
import { consumeOneTimeToken, issueOneTimeToken } from './one-time-tokens';
import { recoveryMail } from './recovery-mail';
import { findUserByEmail } from './repo';
import { afterFirstFactor, type SignInOutcome } from './mfa/sign-in-session';
import { clearSignInLimits } from './sign-in-limits';

/** The reset page the e-mail links to; it verifies the token with POST /api/auth/verify. */
function recoveryLink(ctx: AppContext, token: string): string {
  return `${ctx.config.publicUrl}/reset-password?token_hash=${encodeURIComponent(token)}&type=recovery`;
}

/**
 * E-mails a password-reset link when the address has an account and was confirmed. The answer is the same either
 * way, and an address asked about too often is quietly skipped, so neither reveals who has one.
 */
export async function requestRecovery(ctx: AppContext, input: z.infer<typeof recoverSchema>, client: Client): Promise<void> {
  if (!(await hit(ctx, rateLimitKey('recover-ip', client.ip), AUTH_LIMITS.recoveriesPerIp))) throw rateLimited(messages.generic.rateLimited);
  if (!(await hit(ctx, rateLimitKey('recover-email', input.email), AUTH_LIMITS.recoveriesPerEmail))) return;
  const user = await findUserByEmail(ctx.db, input.email);
  // An address nobody confirmed may be a typo, or someone else's: it gets no reset mail.
  if (!user?.email_verified_at) return;
  const token = await issueOneTimeToken(ctx.db, ctx.clock.now(), user.id, 'recovery');
  await ctx.mail.send(recoveryMail(user.email, recoveryLink(ctx, token)));
}

/**
 * Trades a recovery link's token for a session (single use), so the reset page can set a password;
 * with a second factor on, for the second step first.
 */
export async function verifyRecovery(ctx: AppContext, input: z.infer<typeof verifyRecoverySchema>, client: Client): Promise<SignInOutcome> {
  const raw = input.token_hash;
  if (input.type !== 'recovery' || !raw) throw invalidToken(messages.reset.invalidText);
  const userId = await ctx.db.transaction().execute((trx) => consumeOneTimeToken(trx, ctx.clock.now(), 'recovery', raw));
  if (!userId) throw invalidToken(messages.reset.invalidText);
  // The owner proved the mailbox is theirs: no sign-in lock stands in their way any more.
  await clearSignInLimits(ctx, userId);
  return afterFirstFactor(ctx, userId, 'recovery', client);
}
