import type { AppContext } from '../context';
import { lastOptChoiceOf, setOptedOut } from './repo';

/** Opts a user out of (or back in to) automated texts and tells their open pages. */
export async function setUserOptedOut(ctx: AppContext, userId: string, optedOut: boolean): Promise<void> {
  const changed = await setOptedOut(ctx.db, userId, optedOut, ctx.clock.now().toISOString());
  if (changed) ctx.events.publish(userId, { type: 'profile.updated' });
}

/**
 * A number revoked consent: every account on it (the one that verified it and any sign-up claiming
 * it) gets no automated text from now on; the outbound sender checks at each send, so texts already
 * queued stop too. True when this is a new opt-out, i.e. the one confirmation is owed: something
 * changed, or the number has no account and its last keyword was not already STOP.
 */
export async function optOutNumber(ctx: AppContext, phone: string): Promise<boolean> {
  const changed = await setNumberOptedOut(ctx, phone, 1, { pendingOnly: false });
  if (changed > 0) return true;
  const known = await ctx.db.selectFrom('profiles').select('id').where('phone_number', '=', phone).executeTakeFirst();
  return !known && (await lastOptChoiceOf(ctx, phone)) !== 'opt_out';
}

/** YES or START from a number only sign-ups claim: consent again, so their verification texts may go. */
export async function optInPendingNumber(ctx: AppContext, phone: string): Promise<void> {
  await setNumberOptedOut(ctx, phone, 0, { pendingOnly: true });
}

async function setNumberOptedOut(ctx: AppContext, phone: string, optedOut: 0 | 1, options: { pendingOnly: boolean }): Promise<number> {
  let update = ctx.db
    .updateTable('profiles')
    .set({ is_opted_out: optedOut, updated_at: ctx.clock.now().toISOString() })
    .where('phone_number', '=', phone)
    .where('is_opted_out', '=', optedOut === 1 ? 0 : 1);
  if (options.pendingOnly) update = update.where('phone_verified', '=', 0);
  const changed = await update.returning('id').execute();
  for (const { id } of changed) ctx.events.publish(id, { type: 'profile.updated' });
  return changed.length;
}

/** The carrier refused a text because the number opted out (Twilio 21610): mirror it on every account on the number. */
export async function optOutRecipient(ctx: AppContext, recipient: { userId: string | null; phone: string }): Promise<void> {
  await setNumberOptedOut(ctx, recipient.phone, 1, { pendingOnly: false });
}
