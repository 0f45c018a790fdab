import type { Db } from '../db/database';
import { addDays } from '../journal/dates';
import { currentStreak } from '../journal/stats';

/** The longest streak milestone; a streak is read back this far and no further. */
const STREAK_WINDOW_DAYS = 366;

/**
 * What milestones need, from the (user_id, entry_date) index alone: the days with an entry and the
 * current streak. The streak reads at most a year of days, so a text to a ten-year journal does not
 * load the journal; a streak longer than the window comes out longer than 365, which is no milestone.
 */
export async function milestoneCounts(db: Db, userId: string, today: string): Promise<{ current_streak: number; total_days: number }> {
  const total = await daysWithEntries(db, userId);
  const recent = await recentDays(db, userId, today, addDays(today, -STREAK_WINDOW_DAYS));
  return {
    current_streak: currentStreak(
      recent.map((r) => r.entry_date),
      today,
    ),
    total_days: Number(total?.days ?? 0),
  };
}

const daysWithEntries = (db: Db, userId: string) =>
  db
    .selectFrom('journal_entries')
    .select((eb) => eb.fn.count<number | string>('entry_date').distinct().as('days'))
    .where('user_id', '=', userId)
    .executeTakeFirst();

const recentDays = (db: Db, userId: string, today: string, since: string) =>
  db
    .selectFrom('journal_entries')
    .select('entry_date')
    .distinct()
    .where('user_id', '=', userId)
    .where('entry_date', '<=', today)
    .where('entry_date', '>=', since)
    .orderBy('entry_date', 'desc')
    .execute();
