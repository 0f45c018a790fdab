import type { ProfileUpdate } from '../../shared/profile';
import type { AppContext } from '../context';
import type { Profile, ProfileUpdate as ProfileRowUpdate } from '../db/tables';
import { notFound } from '../errors';

export async function getProfile(ctx: AppContext, userId: string): Promise<Profile> {
  const row = await ctx.db.selectFrom('profiles').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/**
 * Saves the user's own settings and tells their other open tabs. The account has one time zone, for
 * entry dates, times, exports, text replies and reminders: `reminder_timezone`, the name older
 * clients send, sets it too.
 */
export async function updateProfile(ctx: AppContext, userId: string, changes: ProfileUpdate): Promise<Profile> {
  const timezone = changes.timezone ?? changes.reminder_timezone;
  const set: ProfileRowUpdate = {
    reminder_enabled: flag(changes.reminder_enabled),
    reminder_time: changes.reminder_time,
    weekly_recap_enabled: flag(changes.weekly_recap_enabled),
    prompts_enabled: flag(changes.prompts_enabled),
    on_this_day_enabled: flag(changes.on_this_day_enabled),
    paused_until: changes.paused_until,
    timezone,
    // A changed schedule is recomputed by the reminder job (a new zone moves the recap too).
    next_reminder_at: changes.reminder_time || timezone || changes.reminder_enabled !== undefined ? null : undefined,
    next_recap_at: timezone ? null : undefined,
    updated_at: ctx.clock.now().toISOString(),
  };
  const result = await ctx.db.updateTable('profiles').set(set).where('id', '=', userId).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound();
  ctx.events.publish(userId, { type: 'profile.updated' });
  return getProfile(ctx, userId);
}
