import type { AppContext } from '../context';
import type { Db } from '../db/database';
import { bumpRevision } from './repo';

/** What a change touched: its entry, and any other entries it added, changed or deleted. */
export interface JournalChange {
  entryId: string;
  changedEntryIds?: readonly string[];
}

/**
 * Runs one change to a user's journal in a transaction that also bumps the journal's revision
 * (first, so on PostgreSQL one user's writers take turns), then brings the in-memory copy up to
 * date and tells the user's open pages. `work` is given the revision this change makes.
 */
export async function changeJournal<T extends JournalChange>(ctx: AppContext, userId: string, work: (trx: Db, revision: number) => Promise<T>): Promise<T> {
  const { result, revision } = await ctx.db.transaction().execute(async (trx) => {
    const revision = await bumpRevision(trx, userId);
    return { result: await work(trx, revision), revision };
  });
  const touched = [...new Set([result.entryId, ...(result.changedEntryIds ?? [])])].filter(Boolean);
  await ctx.journalCache.entriesChanged(userId, revision, touched);
  for (const entryId of touched) ctx.events.publish(userId, { type: 'entries.changed', entryId });
  return result;
}
