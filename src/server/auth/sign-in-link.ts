import type { AppContext } from '../context';
import { TEXTED_SIGN_IN_LINK_TTL_MINUTES } from './limits';
import { issueOneTimeToken } from './one-time-tokens';
import { authLink } from './phone-verification';

/**
 * A one-time sign-in URL for the user (`PUBLIC_URL/auth/callback?token=…`): valid 15 minutes, single
 * use, traded for a session by POST /api/auth/token {grant_type: "link"}. Texted by LINK, by the
 * sign-in page's "Text me a sign-in link" and in reminders that point back to the journal.
 */
export async function issueSignInLink(ctx: AppContext, userId: string): Promise<string> {
  const token = await issueOneTimeToken(ctx.db, ctx.clock.now(), userId, 'sign_in_link', TEXTED_SIGN_IN_LINK_TTL_MINUTES);
  return authLink(ctx, token);
}
