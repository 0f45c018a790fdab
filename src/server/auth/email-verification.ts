import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { invalidToken } from '../errors';
import { hit, rateLimitKey } from '../rate-limit';
import { AUTH_LIMITS } from './limits';
import { consumeOneTimeToken, issueOneTimeToken } from './one-time-tokens';
import { emailVerificationMail } from './recovery-mail';

/** The page the e-mail links to; it confirms the address with POST /api/auth/verify {token_hash, type: "email"}. */
function verificationLink(ctx: AppContext, token: string): string {
  return `${ctx.config.publicUrl}/auth/callback?token_hash=${encodeURIComponent(token)}&type=email`;
}

/**
 * E-mails a link that confirms the account's address (at sign-up, and when asked again). Until it
 * is opened, no reset mail goes to the address: it may be a typo, or someone else's. An address
 * asked about too often is quietly skipped.
 */
export async function sendEmailVerification(ctx: AppContext, userId: string): Promise<void> {
  const user = await ctx.db.selectFrom('users').select(['id', 'email', 'email_verified_at']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.email_verified_at) return;
  if (!(await hit(ctx, rateLimitKey('verify-email', user.id), AUTH_LIMITS.recoveriesPerEmail))) return;
  const token = await issueOneTimeToken(ctx.db, ctx.clock.now(), user.id, 'email_verification');
  await ctx.mail.send(emailVerificationMail(user.email, verificationLink(ctx, token)));
}

/** Confirms the address the link was sent to (single use; a link for an address since changed confirms nothing). */
export async function verifyEmail(ctx: AppContext, raw: string | undefined): Promise<{ email_verified: true }> {
  if (!raw) throw invalidToken(messages.emailVerification.invalidLink);
  const now = ctx.clock.now();
  const userId = await consumeOneTimeToken(ctx.db, now, 'email_verification', raw);
  if (!userId) throw invalidToken(messages.emailVerification.invalidLink);
  await ctx.db.updateTable('users').set({ email_verified_at: now.toISOString() }).where('id', '=', userId).where('email_verified_at', 'is', null).execute();
  return { email_verified: true };
}
