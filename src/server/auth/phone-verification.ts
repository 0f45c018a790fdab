import type { VerifyPhoneResult } from '../../shared/auth-schemas';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { invalidToken } from '../errors';
import { findUsableToken, issueOneTimeToken } from './one-time-tokens';
import { isPhoneVerified } from './repo';
import { markOneTimeTokenUsed } from './token-repo';

/** The sign-in page the auth link opens; it trades the token for a session. */
export function authLink(ctx: AppContext, token: string): string {
  return `${ctx.config.publicUrl}/auth/callback?token=${encodeURIComponent(token)}`;
}

async function verificationUser(ctx: AppContext, rawToken: string): Promise<{ tokenId: string; userId: string }> {
  const token = await findUsableToken(ctx.db, ctx.clock.now(), 'phone_verification', rawToken);
  if (!token) throw invalidToken(messages.verification.invalidToken);
  return { tokenId: token.id, userId: token.user_id };
}

/**
 * What the verification page polls: not yet, or (once the person texted YES) a single-use
 * sign-in link. Handing out the link uses up the verification token.
 */
export async function checkPhoneVerification(ctx: AppContext, rawToken: string): Promise<VerifyPhoneResult> {
  const { tokenId, userId } = await verificationUser(ctx, rawToken);
  if (!(await isPhoneVerified(ctx.db, userId))) return { verified: false };
  const now = ctx.clock.now();
  const link = await ctx.db.transaction().execute(async (trx) => {
    if (!(await markOneTimeTokenUsed(trx, tokenId, now.toISOString()))) return undefined;
    return issueOneTimeToken(trx, now, userId, 'sign_in_link');
  });
  if (!link) throw invalidToken(messages.verification.invalidToken);
  return { verified: true, auth_link: authLink(ctx, link) };
}

/**
 * Calls `onVerified` once the token's phone is verified: at once if it already is, else when the
 * profile update arrives. Returns the function that stops watching.
 */
export async function watchPhoneVerification(ctx: AppContext, rawToken: string, onVerified: () => void): Promise<() => void> {
  const { userId } = await verificationUser(ctx, rawToken);
  let done = false;
  const fire = () => {
    if (done) return;
    done = true;
    onVerified();
  };
  // Subscribe before reading, so a YES between the two is not missed.
  const unsubscribe = ctx.events.subscribe(userId, (event) => {
    if (event.type === 'profile.updated' && event.phone_verified === true) fire();
  });
  if (await isPhoneVerified(ctx.db, userId)) fire();
  return unsubscribe;
}
