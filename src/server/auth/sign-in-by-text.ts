import type { z } from 'zod';
import { messages } from '../../shared/messages';
import type { signInLinkRequestSchema } from '../../shared/sign-in-by-text';
import type { AppContext } from '../context';
import { rateLimited } from '../errors';
import { hit, rateLimitKey } from '../rate-limit';
import { enqueueSms } from '../sms/outbound';
import { AUTH_LIMITS, type Client } from './limits';
import { findPhoneHolder } from './phone-claims';
import { issueSignInLink } from './sign-in-link';

/**
 * "Text me a sign-in link": texts a one-time link to the phone when it is the verified phone of an
 * account. The caller learns nothing either way: the same answer for any number, and a number asked
 * about too often is quietly skipped. Only the per-address cap answers 429, which says nothing about
 * the number. The text goes through the outbound queue, so an opted-out number gets nothing.
 */
export async function textSignInLink(ctx: AppContext, input: z.output<typeof signInLinkRequestSchema>, client: Client): Promise<void> {
  if (!(await hit(ctx, rateLimitKey('signin-link-ip', client.ip), AUTH_LIMITS.signInLinksPerIp))) {
    throw rateLimited(messages.signInByText.rateLimited);
  }
  if (!(await hit(ctx, rateLimitKey('signin-link-phone', input.phoneNumber), AUTH_LIMITS.signInLinksPerPhone))) return;
  const profile = await findPhoneHolder(ctx.db, input.phoneNumber);
  if (!profile) return;
  await enqueueSms(ctx, {
    userId: profile.id,
    to: profile.phone_number,
    body: messages.textCommands.link(await issueSignInLink(ctx, profile.id)),
    kind: 'sign_in_link',
  });
}
