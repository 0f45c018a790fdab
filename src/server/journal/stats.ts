import type { JournalStats } from '../../shared/journal';
import type { AppContext } from '../context';
import { localDate } from './dates';
import { loadOwner } from './owner';

/**
 * Consecutive days with an entry, ending today or yesterday; 0 when neither has one.
 * `days` is newest first, without repeats.
 */
export function currentStreak(days: readonly string[], today: string): number {
  // Day numbers, so a ten-year streak is ten thousand integer steps, not date arithmetic.
  const dayNumber = (day: string) => Date.parse(day) / 86_400_000;
  const todayNumber = dayNumber(today);
  let streak = 0;
  let expected: number | undefined;
  for (const day of days) {
    const n = dayNumber(day);
    if (n > todayNumber) continue; // a future-dated entry neither starts nor breaks a streak
    if (expected === undefined) {
      if (n < todayNumber - 1) return 0;
      expected = n;
    }
    if (n !== expected) break;
    streak += 1;
    expected -= 1;
  }
  return streak;
}

/** GET /api/stats: the statistics row above the journal, from the journal held in memory. */
export async function journalStats(ctx: AppContext, userId: string): Promise<JournalStats> {
  const [owner, entries] = await Promise.all([loadOwner(ctx, userId), ctx.journalCache.entries(userId)]);
  const days = [...new Set(entries.map((e) => e.entry_date))].sort().reverse();
  return {
    current_streak: currentStreak(days, localDate(ctx.clock.now(), owner.timezone)),
    total_days: days.length,
    total_photos: entries.reduce((sum, e) => sum + e.photos.length, 0),
    total_words: entries.reduce((sum, e) => sum + e.word_count, 0),
  };
}
