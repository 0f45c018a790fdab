import type { z } from 'zod';
import type { logoutSchema, updateUserSchema } from '../../shared/auth-schemas';
import { messages } from '../../shared/messages';
import type { AppContext } from '../context';
import { unauthorized } from '../errors';
import type { RequestUser } from './authenticate';
import { hashPassword } from './passwords';
import { findAccount, updatePasswordHash, type Account } from './repo';
import { revokeFamily, revokeUserFamilies, useUpOneTimeTokens } from './token-repo';

/** The signed-in user's account. */
export async function getAccount(ctx: AppContext, userId: string): Promise<Account> {
  const account = await findAccount(ctx.db, userId);
  if (!account) throw unauthorized(messages.auth.sessionExpired);
  return account;
}

/**
 * Sets a new password. Every other session is signed out (a reset usually means the old password
 * leaked) and outstanding reset links stop working; the caller's session stays.
 */
export async function changePassword(ctx: AppContext, user: RequestUser, input: z.infer<typeof updateUserSchema>): Promise<Account> {
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await updatePasswordHash(trx, user.id, passwordHash, now);
    await revokeUserFamilies(trx, user.id, now, user.sessionFamily);
    await useUpOneTimeTokens(trx, user.id, 'recovery', now);
  });
  ctx.events.publish(user.id, { type: 'sessions.changed' });
  return getAccount(ctx, user.id);
}

/** Signs out this session (local) or every session of the user (global). */
export async function signOut(ctx: AppContext, user: RequestUser, input: z.infer<typeof logoutSchema>): Promise<void> {
  const now = ctx.clock.now().toISOString();
  if (input.scope === 'global') await revokeUserFamilies(ctx.db, user.id, now);
  else await revokeFamily(ctx.db, user.sessionFamily, now);
  // Open event streams of the ended sessions close (on every instance).
  ctx.events.publish(user.id, { type: 'sessions.changed' });
}
