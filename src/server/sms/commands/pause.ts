import type { AppContext } from '../../context';
import type { Profile } from '../../db/tables';

/** True while the user's automated texts are paused (PAUSE by text). */
export function isPaused(profile: Pick<Profile, 'paused_until'>, at: Date): boolean {
  return profile.paused_until !== null && profile.paused_until > at.toISOString();
}

/** Pauses automated texts for `days` days from now (a new PAUSE replaces the old one); returns the end. */
export async function pauseTexts(ctx: AppContext, userId: string, days: number): Promise<Date> {
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + days * 86_400_000);
  await ctx.db.updateTable('profiles').set({ paused_until: until.toISOString(), updated_at: now.toISOString() }).where('id', '=', userId).execute();
  ctx.events.publish(userId, { type: 'profile.updated' });
  return until;
}

/** Ends a pause; false when texts were not paused (an expired pause is cleared quietly). */
export async function resumeTexts(ctx: AppContext, userId: string): Promise<boolean> {
  const now = ctx.clock.now();
  const profile = await ctx.db.selectFrom('profiles').select('paused_until').where('id', '=', userId).executeTakeFirst();
  if (!profile || profile.paused_until === null) return false;
  await ctx.db.updateTable('profiles').set({ paused_until: null, updated_at: now.toISOString() }).where('id', '=', userId).execute();
  ctx.events.publish(userId, { type: 'profile.updated' });
  return isPaused(profile, now);
}

/** "Tue, Dec 1, 5:35 PM EST": plain ASCII for a text (ICU puts narrow no-break spaces before PM). */
export function localDateTime(at: Date, timeZone: string): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(at);
  let text: string;
  try {
    text = format(timeZone || 'UTC');
  } catch {
    text = format('UTC');
  }
  return text.replace(/[\u00a0\u202f]/g, ' ');
}

/** "9:00 PM" for "21:00". */
export function clockTime(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}
