import type { AdminUserInfo, DeletionSummary } from '../../shared/admin';
import { adminMessages } from '../../shared/admin';
import { normalizeUsPhone } from '../../shared/phone';
import type { AppContext } from '../context';
import { invalidInput, notFound } from '../errors';
import { isUuid } from '../ids';
import { countsOf, deleteAccount } from '../account-deletion/delete-account';
import { lastFour } from './common';

/** A UUID-shaped input is a user id; anything else is tried as an e-mail address, then as a US phone. */
async function findUserId(ctx: AppContext, q: string): Promise<string | undefined> {
  if (isUuid(q)) {
    return (await ctx.db.selectFrom('users').select('id').where('id', '=', q.toLowerCase()).executeTakeFirst())?.id;
  }
  const byEmail = await ctx.db.selectFrom('users').select('id').where('email', '=', q.toLowerCase()).executeTakeFirst();
  if (byEmail) return byEmail.id;
  const phone = normalizeUsPhone(q);
  if (!phone) return undefined;
  // Pending sign-ups may claim a number too: the account that verified it comes first.
  return (await ctx.db.selectFrom('profiles').select('id').where('phone_number', '=', phone).orderBy('phone_verified', 'desc').executeTakeFirst())?.id;
}

/** What the user management page shows: no entry text, the phone as its last four digits. */
export async function lookUpUser(ctx: AppContext, q: string): Promise<AdminUserInfo> {
  const id = await findUserId(ctx, q);
  if (!id) throw notFound(adminMessages.userNotFound);
  const user = await ctx.db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.id', 'users.id')
    .select(['users.id', 'users.email', 'users.created_at', 'users.is_admin', 'profiles.phone_number', 'profiles.phone_verified'])
    .where('users.id', '=', id)
    .executeTakeFirst();
  if (!user) throw notFound(adminMessages.userNotFound);
  const sub = await ctx.db.selectFrom('subscribers').selectAll().where('user_id', '=', id).executeTakeFirst();
  const now = ctx.clock.now().toISOString();
  const subscribed = !!sub && sub.subscribed === 1 && (sub.subscription_end === null || sub.subscription_end > now);
  const inTrial = !!sub && sub.is_trial === 1 && sub.trial_end !== null && sub.trial_end > now;
  return {
    id: user.id,
    email: user.email,
    phone_last_four: user.phone_number ? lastFour(user.phone_number) : null,
    created_at: user.created_at,
    phone_verified: user.phone_verified === 1,
    is_admin: user.is_admin === 1,
    counts: await countsOf(ctx.db, id, user.phone_number ?? null),
    subscription: sub
      ? {
          subscribed,
          subscription_tier: subscribed ? sub.subscription_tier : null,
          subscription_end: sub.subscription_end,
          is_trial: sub.is_trial === 1,
          trial_end: sub.trial_end,
          hasAccess: subscribed || inTrial,
        }
      : null,
  };
}

/**
 * Deletes a user and everything of theirs (billing cancelled first; see account-deletion), for an
 * admin, who cannot delete their own account here. Recorded as a security event.
 */
export async function deleteUser(ctx: AppContext, admin: { id: string; email: string }, userId: string, ip: string): Promise<DeletionSummary> {
  if (!isUuid(userId)) throw notFound(adminMessages.userNotFound);
  if (userId.toLowerCase() === admin.id.toLowerCase()) throw invalidInput(adminMessages.cannotDeleteSelf);
  const summary = await deleteAccount(ctx, userId.toLowerCase(), { eventType: 'admin_user_deleted', actorId: admin.id, ip });
  if (!summary) throw notFound(adminMessages.userNotFound);
  return summary;
}
