import { describe, expect, it } from 'vitest';
import { countWords } from '../../shared/journal';
import { newId } from '../ids';
import { addDays } from '../journal/dates';
import { encryptEntryText } from '../journal/entry-cipher';
import { loadOwner } from '../journal/owner';
import { bumpRevision } from '../journal/repo';
import { journalStats } from '../journal/stats';
import { textJournal, type SmsTestApp, withTwilioApp } from '../test/sms';
import { buildUser } from '../test/factories';
import { milestoneCounts } from './repo';

// 2026-03-02 04:00 UTC is still March 1st in New York, where buildUser's users live.
const NOW = new Date('2026-03-02T04:00:00Z');
const TODAY = '2026-03-01';

describe('milestone counts from the date index', () => {
  let t: SmsTestApp;
  withTwilioApp((app) => ({ t } = app));

  /** Entries written straight to the database on these days (several on a day when repeated). */
  async function writeDays(userId: string, days: readonly string[]): Promise<void> {
    const ctx = t.ctx;
    const owner = await loadOwner(ctx, userId);
    await ctx.db.transaction().execute(async (trx) => {
      for (const day of days) {
        const content = `An entry for ${day}.`;
        await trx
          .insertInto('journal_entries')
          .values({
            id: newId(),
            user_id: userId,
            ...encryptEntryText(ctx, userId, owner.salt, { content, title: null, tags: [] }),
            source: 'web',
            sms_part: 0,
            entry_date: day,
            word_count: countWords(content),
            created_at: `${day}T12:00:00.000Z`,
            updated_at: `${day}T12:00:00.000Z`,
          })
          .execute();
      }
      await bumpRevision(trx, userId);
    });
  }

  const run = (length: number, endingOn: string) => Array.from({ length }, (_, i) => addDays(endingOn, -i));
  const milestoneTexts = (userId: string) =>
    t.ctx.db.selectFrom('sms_messages').select('dedupe_key').where('user_id', '=', userId).where('kind', '=', 'milestone').orderBy('dedupe_key').execute();

  it('agree with the statistics row: repeated days, gaps and a future-dated entry', async () => {
    t.clock.set(NOW);
    const user = await buildUser(t);
    // 40 days up to yesterday, today twice, a gap, 25 older days, and one entry dated next week.
    await writeDays(user.id, [...run(40, addDays(TODAY, -1)), TODAY, TODAY, ...run(25, addDays(TODAY, -50)), addDays(TODAY, 7)]);
    const stats = await journalStats(t.ctx, user.id);
    expect(stats).toMatchObject({ current_streak: 41, total_days: 67 });
    expect(await milestoneCounts(t.ctx.db, user.id, TODAY)).toEqual({ current_streak: stats.current_streak, total_days: stats.total_days });
  });

  it('count a streak of exactly a year, and never make a longer one look like 365', async () => {
    t.clock.set(NOW);
    const year = await buildUser(t);
    await writeDays(year.id, run(365, addDays(TODAY, -1)));
    expect(await milestoneCounts(t.ctx.db, year.id, TODAY)).toEqual({ current_streak: 365, total_days: 365 });

    for (const length of [366, 367, 400, 800]) {
      const longer = await buildUser(t);
      await writeDays(longer.id, run(length, TODAY));
      const counts = await milestoneCounts(t.ctx.db, longer.id, TODAY);
      expect(counts.total_days).toBe(length);
      expect(counts.current_streak).toBeGreaterThan(365);
    }
  });

  it('a text that makes a seven-day streak is congratulated once, however many texts follow that day', async () => {
    t.clock.set(NOW);
    const user = await buildUser(t);
    await writeDays(user.id, run(6, addDays(TODAY, -1)));
    await textJournal(t, user.phone, 'Day seven, by text.');
    expect(await milestoneTexts(user.id)).toEqual([{ dedupe_key: `milestone:${user.id}:streak:7` }]);
    await textJournal(t, user.phone, 'And again the same evening.');
    expect(await milestoneTexts(user.id)).toHaveLength(1);
  });

  it('the tenth journal day is congratulated after a text, in the user’s own day', async () => {
    t.clock.set(NOW);
    const user = await buildUser(t);
    // Nine days, the last the day before yesterday: no streak, nine days so far.
    await writeDays(user.id, run(9, addDays(TODAY, -2)));
    await textJournal(t, user.phone, 'The tenth day.');
    expect(await milestoneTexts(user.id)).toEqual([{ dedupe_key: `milestone:${user.id}:days:10` }]);
  });
});
