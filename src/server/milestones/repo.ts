import type { Db } from '../db/database';
import { preparedQuery } from '../db/prepared';
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
  const [total] = await daysWithEntries(db, { userId });
  const recent = await recentDays(db, { userId, today, since: addDays(today, -STREAK_WINDOW_DAYS) });
  return {
    current_streak: currentStreak(
      recent.map((r) => r.entry_date),
      today,
    ),
    total_days: Number(total?.days ?? 0),
  };
}

// Both run for every new entry and every text that starts one (db/prepared.ts).
const daysWithEntries = preparedQuery<{ userId: string }, { days: number | string }>((db, param) =>
  db
    .selectFrom('journal_entries')
    .select((eb) => eb.fn.count<number | string>('entry_date').distinct().as('days'))
    .where('user_id', '=', param('userId')),
);

const recentDays = preparedQuery<{ userId: string; today: string; since: string }, { entry_date: string }>((db, param) =>
  db
    .selectFrom('journal_entries')
    .select('entry_date')
    .distinct()
    .where('user_id', '=', param('userId'))
    .where('entry_date', '<=', param('today'))
    .where('entry_date', '>=', param('since'))
    .orderBy('entry_date', 'desc'),
);
