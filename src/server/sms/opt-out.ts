import type { AppContext } from '../context';
import { findProfile, findProfileByPhone, setOptedOut } from './repo';

/** Opts a user out of (or back in to) automated texts and tells their open pages. */
export async function setUserOptedOut(ctx: AppContext, userId: string, optedOut: boolean): Promise<void> {
  const changed = await setOptedOut(ctx.db, userId, optedOut, ctx.clock.now().toISOString());
  if (changed) ctx.events.publish(userId, { type: 'profile.updated' });
}

/**
 * The carrier refused a text because the number opted out (Twilio 21610): mirror it on the account
 * the text was for, or on whichever account holds that number.
 */
export async function optOutRecipient(ctx: AppContext, recipient: { userId: string | null; phone: string }): Promise<void> {
  const profile = recipient.userId ? await findProfile(ctx.db, recipient.userId) : await findProfileByPhone(ctx.db, recipient.phone);
  if (profile) await setUserOptedOut(ctx, profile.id, true);
}
