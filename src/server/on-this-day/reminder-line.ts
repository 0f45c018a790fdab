import { messages } from '../../shared/messages';
import { issueSignInLink } from '../auth/sign-in-link';
import type { AppContext } from '../context';
import type { Profile } from '../db/tables';
import { latestYearsAgo } from './service';

const STOP_LINE = ' Reply STOP to opt out.';

/**
 * The daily text as it goes out on a day with an On This Day entry (when the user has the switch
 * on): "You wrote on this day N years ago - read it: LINK" before the opt-out line. The link is a
 * one-time sign-in link; the entry's text never goes into a text that can reach a lock screen.
 */
export async function withOnThisDay(ctx: AppContext, profile: Profile, today: string, body: string): Promise<string> {
  if (profile.on_this_day_enabled !== 1) return body;
  const years = await latestYearsAgo(ctx, profile.id, today);
  if (years === null) return body;
  const line = messages.onThisDay.reminderLine(years, await issueSignInLink(ctx, profile.id));
  return body.endsWith(STOP_LINE) ? `${body.slice(0, -STOP_LINE.length)} ${line}${STOP_LINE}` : `${body} ${line}`;
}
