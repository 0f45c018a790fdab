import type { JournalStats } from '../../shared/journal';
import type { AppContext } from '../context';
import { localDate } from './dates';
import { loadOwner } from './owner';
import { currentStreak } from '../../shared/search-text';

// Shared with the browser, which counts a Vault journal's statistics itself.
export { currentStreak } from '../../shared/search-text';

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
