import type { AppContext } from '../context';
import type { CachedEntry } from '../journal/cache';
import { localDate } from '../journal/dates';
import { loadOwner } from '../journal/owner';
import { isOnThisDay, matchingMonthDays, yearsAgo } from './days';

/**
 * GET /api/on-this-day: the user's entries from today's month and day (their local date) in earlier
 * years, in the journal's order (newest first). `revision`: the journal's, when the request already read it (journal/gate.ts).
 */
export async function entriesOnThisDay(ctx: AppContext, userId: string, revision?: number): Promise<CachedEntry[]> {
  const owner = await loadOwner(ctx, userId);
  const today = localDate(ctx.clock.now(), owner.timezone);
  return (await ctx.journalCache.entries(userId, revision)).filter((e) => isOnThisDay(e.entry_date, today));
}

/**
 * How many years ago the most recent earlier-year entry on this day was written, or null when
 * there is none. Reads entry dates only, never entry text.
 */
export async function latestYearsAgo(ctx: AppContext, userId: string, today: string): Promise<number | null> {
  const row = await ctx.db
    .selectFrom('journal_entries')
    .select('entry_date')
    .where('user_id', '=', userId)
    .where('entry_date', '<', `${today.slice(0, 4)}-01-01`)
    .where((eb) => eb.or(matchingMonthDays(today).map((monthDay) => eb('entry_date', 'like', `%-${monthDay}`))))
    .orderBy('entry_date', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? yearsAgo(row.entry_date, today) : null;
}
